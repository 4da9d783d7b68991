package dev.crawler.frontier.internal;

import dev.crawler.frontier.FetchOutcome;
import dev.crawler.frontier.FrontierOptions;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The politeness rules: how long a host waits after a fetch, given how the fetch ended, and
 * how many of its fetches may be in flight. Pure arithmetic on millis; the frontier applies
 * the result.
 *
 * <ul>
 *   <li>The host's delay is {@code max(defaultDelay, min(crawlDelay, maxCrawlDelay))}: a robots
 *       Crawl-delay can only slow us down, and only up to the cap; our own default is the floor.
 *       Two fetches of a host never start closer than its delay, whatever its connection limit
 *       (the frontier moves the host's time on by the delay, plus a small margin, at each lease
 *       and at each request's actual start, and holds a request back until the delay since the
 *       last one started has passed: {@link #afterStart}).
 *       With one connection the next fetch also starts at least the delay after the last one
 *       ended; with several, only failures and Retry-After wait from an end.
 *   <li>A host whose robots.txt gives a Crawl-delay above 0 has one connection, whatever its
 *       limit: a site owner who asks for one request every n seconds means one at a time.
 *   <li>{@code FETCHED}: wait the delay (with several connections, from the latest start);
 *       consecutive failures reset to 0.
 *   <li>{@code DEFERRED}: wait the delay; consecutive failures unchanged.
 *   <li>{@code SKIPPED} (no request made): the host's next allowed time and failures stay as
 *       they were (it may go on at once).
 *   <li>{@code RETRY_AFTER(r)}: wait {@code max(delay, min(r, maxRetryAfter))}; it counts as
 *       a failure, so a host that answers 503 forever is suspended like one that is down.
 *   <li>{@code FAILED}, the n-th in a row: wait {@code max(delay, b)} with
 *       {@code b = min(backoffMax, backoffInitial * 2^(n-1))} jittered uniformly into
 *       {@code [b/2, b]} ("equal jitter": the wait still grows, but hosts that failed
 *       together, say behind one dead server, do not all come back in the same millisecond).
 *   <li>From {@code suspendAfter} consecutive failures on, each further failure suspends the
 *       host: it waits {@code suspendFor} (at least), then is tried again. One success ends it.
 * </ul>
 */
public final class Politeness {
  private static final Duration MAX_MILLIS = Duration.ofMillis(Long.MAX_VALUE);
  private static final long MAX_START_MARGIN_MILLIS = 10;

  private final long defaultDelay;
  private final long maxCrawlDelay;
  private final int connectionsPerHost;
  private final long maxRetryAfter;
  private final long backoffInitial;
  private final long backoffMax;
  private final int suspendAfter;
  private final long suspendFor;
  private final RandomGenerator random;

  /** The wait chosen after a fetch, and the host's consecutive failures after it. */
  public record Wait(long nextAllowedMillis, int consecutiveFailures) {}

  public Politeness(FrontierOptions o, RandomGenerator random) {
    this.defaultDelay = o.defaultDelay().toMillis();
    this.maxCrawlDelay = o.maxCrawlDelay().toMillis();
    this.connectionsPerHost = o.connectionsPerHost();
    this.maxRetryAfter = o.maxRetryAfter().toMillis();
    this.backoffInitial = o.backoffInitial().toMillis();
    this.backoffMax = o.backoffMax().toMillis();
    this.suspendAfter = o.suspendAfter();
    this.suspendFor = o.suspendFor().toMillis();
    this.random = random;
  }

  /** The delay between fetches of a host whose robots Crawl-delay is {@code crawlDelayMillis} (-1: none). */
  public long delayMillis(long crawlDelayMillis) {
    return crawlDelayMillis < 0 ? defaultDelay : Math.max(defaultDelay, Math.min(crawlDelayMillis, maxCrawlDelay));
  }

  /**
   * The fetches of a host that may be in flight at once: one if its robots.txt gives a
   * Crawl-delay, else its stored limit (0: the default).
   */
  public int connectionLimit(HostState state) {
    if (state.crawlDelayMillis() > 0) {
      return 1;
    }
    return state.connectionLimit() > 0 ? state.connectionLimit() : connectionsPerHost;
  }

  /**
   * Whether the starts of a host's fetches are spaced by its delay at each start: when it may have
   * several connections and has a delay. With one connection the host is out of the ready set
   * while its fetch runs, and the fetch's end moves its time on, so nothing needs to move at the
   * start.
   */
  public boolean spacesStarts(HostState state) {
    return delayMillis(state.crawlDelayMillis()) > 0 && connectionLimit(state) > 1;
  }

  /**
   * The host's next allowed time once a fetch of it starts at {@code now}: the delay and its
   * {@link #startMargin} on, never earlier than it was.
   */
  public long afterStart(HostState state, long scheduledMillis, long now) {
    if (!spacesStarts(state)) {
      return scheduledMillis;
    }
    long delay = delayMillis(state.crawlDelayMillis());
    return Math.max(scheduledMillis, now + delay + startMargin(delay));
  }

  /**
   * What starts spaced by the delay add to it: a twentieth, at most 10 ms. Two requests sent the
   * delay apart reach the server's log through its own scheduling and the network, which can
   * bring them a few milliseconds closer; the server's log is what a site owner reads. A delay
   * counted from an end needs none: the server ended before the crawler saw the end.
   */
  static long startMargin(long delay) {
    return Math.min(MAX_START_MARGIN_MILLIS, delay / 20);
  }

  /**
   * The host's next allowed time after an outcome, and its failures. Never earlier than it was,
   * but for a success that ends a suspension: with several connections to a host, a 429's
   * Retry-After or a back-off decided by one completion must not be cut short by the next
   * completion of a concurrent fetch. Never earlier than the delay after the host's latest start
   * either, when its starts are spaced (a success that ends a suspension included).
   *
   * @param scheduledMillis when the host was next allowed before this outcome (a fetch of it
   *     ending meanwhile, or a start, may have moved it past {@code now})
   * @param lastStartMillis when the host's latest fetch started; any value if it has none
   */
  public Wait after(FetchOutcome outcome, HostState state, long scheduledMillis, long lastStartMillis, long now) {
    boolean spaced = spacesStarts(state);
    Wait wait = after(outcome, state.crawlDelayMillis(), state.consecutiveFailures(), scheduledMillis, now, !spaced);
    long delay = delayMillis(state.crawlDelayMillis());
    long floor = spaced ? lastStartMillis + delay + startMargin(delay) : Long.MIN_VALUE;
    return wait.nextAllowedMillis() >= floor ? wait : new Wait(floor, wait.consecutiveFailures());
  }

  /** {@link #after(FetchOutcome, HostState, long, long, long)} for a host with one connection. */
  Wait after(FetchOutcome outcome, long crawlDelayMillis, int consecutiveFailures, long scheduledMillis, long now) {
    return after(outcome, crawlDelayMillis, consecutiveFailures, scheduledMillis, now, true);
  }

  private Wait after(FetchOutcome outcome, long crawlDelayMillis, int consecutiveFailures, long scheduledMillis,
      long now, boolean delayFromTheEnd) {
    Wait wait = afterAlone(outcome, crawlDelayMillis, consecutiveFailures, scheduledMillis, now, delayFromTheEnd);
    if (outcome.kind() == FetchOutcome.Kind.FETCHED && consecutiveFailures >= suspendAfter) {
      return wait;   // a success ends a suspension, whichever fetch of the host brings it
    }
    return wait.nextAllowedMillis() >= scheduledMillis ? wait : new Wait(scheduledMillis, wait.consecutiveFailures());
  }

  /** @param delayFromTheEnd whether a success waits the delay from now, the fetch's end (one connection) */
  private Wait afterAlone(FetchOutcome outcome, long crawlDelayMillis, int consecutiveFailures, long scheduledMillis,
      long now, boolean delayFromTheEnd) {
    long delay = delayMillis(crawlDelayMillis);
    return switch (outcome.kind()) {
      case FETCHED -> new Wait(delayFromTheEnd ? now + delay : now, 0);
      case SKIPPED -> new Wait(Math.max(now, scheduledMillis), consecutiveFailures);
      case DEFERRED -> new Wait(now + delay, consecutiveFailures);
      case RETRY_AFTER -> {
        int failures = saturatedIncrement(consecutiveFailures);
        long wait = Math.max(delay, Math.min(saturatedMillis(outcome.retryAfter()), maxRetryAfter));
        yield new Wait(now + (failures >= suspendAfter ? Math.max(wait, suspendFor) : wait), failures);
      }
      case FAILED -> {
        int failures = saturatedIncrement(consecutiveFailures);
        long wait = failures >= suspendAfter ? Math.max(delay, suspendFor) : Math.max(delay, jittered(backoff(failures)));
        yield new Wait(now + wait, failures);
      }
    };
  }

  /**
   * The duration in milliseconds, or {@code Long.MAX_VALUE} when there are more than a long
   * holds. A server may send any number as Retry-After ("Retry-After: 99999999999999999"), and
   * {@link Duration#toMillis} would throw on it inside a completion, leaving the lease open and
   * the host never served again.
   */
  public static long saturatedMillis(Duration d) {
    return d.compareTo(MAX_MILLIS) >= 0 ? Long.MAX_VALUE : d.toMillis();
  }

  /** {@code min(backoffMax, backoffInitial * 2^(failures-1))}, without overflow. */
  long backoff(int failures) {
    int doublings = failures - 1;
    if (backoffInitial == 0) {
      return 0;
    }
    if (doublings >= 62 || backoffInitial > (backoffMax >> Math.min(doublings, 62))) {
      return backoffMax;
    }
    return Math.min(backoffMax, backoffInitial << doublings);
  }

  private long jittered(long b) {
    long half = b / 2;
    return half + random.nextLong(b - half + 1);
  }

  private static int saturatedIncrement(int n) {
    return n == Integer.MAX_VALUE ? n : n + 1;
  }
}
