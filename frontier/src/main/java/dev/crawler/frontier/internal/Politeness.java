package dev.crawler.frontier.internal;

import dev.crawler.frontier.FetchOutcome;
import dev.crawler.frontier.FrontierOptions;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The politeness rules: how long a host waits after a fetch, given how the fetch ended.
 * Pure arithmetic on millis; the frontier applies the result.
 *
 * <ul>
 *   <li>The delay between the end of a fetch and the start of the next is
 *       {@code max(defaultDelay, min(crawlDelay, maxCrawlDelay))}: a robots Crawl-delay can
 *       only slow us down, and only up to the cap; our own default is the floor.
 *   <li>{@code FETCHED}: wait the delay; consecutive failures reset to 0.
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

  /** The connection limit of a host whose stored limit is {@code storedLimit} (0: the default). */
  public int connectionLimit(int storedLimit) {
    return storedLimit > 0 ? storedLimit : connectionsPerHost;
  }

  /**
   * The host's next allowed time after an outcome. Never earlier than it was, but for a success
   * that ends a suspension: with several connections to a host, a 429's Retry-After or a back-off
   * decided by one completion was cut short by the next completion of a concurrent fetch (found
   * by a fuzzer). With one connection the time it was is in the past at every completion, and
   * changes nothing.
   *
   * @param scheduledMillis when the host was next allowed before this outcome (a fetch of it
   *     ending meanwhile may have moved it past {@code now})
   */
  public Wait after(FetchOutcome outcome, long crawlDelayMillis, int consecutiveFailures, long scheduledMillis,
      long now) {
    Wait wait = afterAlone(outcome, crawlDelayMillis, consecutiveFailures, scheduledMillis, now);
    if (outcome.kind() == FetchOutcome.Kind.FETCHED && consecutiveFailures >= suspendAfter) {
      return wait;   // a success ends a suspension, whichever fetch of the host brings it
    }
    return wait.nextAllowedMillis() >= scheduledMillis ? wait : new Wait(scheduledMillis, wait.consecutiveFailures());
  }

  private Wait afterAlone(FetchOutcome outcome, long crawlDelayMillis, int consecutiveFailures, long scheduledMillis,
      long now) {
    long delay = delayMillis(crawlDelayMillis);
    return switch (outcome.kind()) {
      case FETCHED -> new Wait(now + delay, 0);
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
