package dev.crawler.frontier;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.time.Duration;

/**
 * How a leased fetch ended, as far as the frontier cares: it decides whether the URL leaves
 * its queue and when its host may be fetched again.
 *
 * @param kind what happened
 * @param retryAfter for {@link Kind#RETRY_AFTER} the server's Retry-After (zero if it sent
 *     none); zero otherwise
 */
public record FetchOutcome(Kind kind, Duration retryAfter) {
  /** What happened to a fetch. */
  public enum Kind {
    /** The server answered (any status but 429/503): the URL is done; the host's failures reset. */
    FETCHED,
    /**
     * 429 or 503: the URL stays queued and is handed out again; the host waits the
     * Retry-After (capped), and it counts as a failure towards suspension.
     */
    RETRY_AFTER,
    /** No answer (connect error, timeout): the URL is done; the host backs off and may be suspended. */
    FAILED,
    /**
     * The URL was not fetched because the host was asked for something else first (its
     * robots.txt): the URL stays queued, the host waits its delay, and it is not a failure.
     */
    DEFERRED,
    /**
     * No request was made and none is due for the URL (robots.txt disallows it, the host's page
     * budget is spent): the URL is done, and the host may go on at once, as no request was spent
     * on it: its next allowed time and its failures stay as they were.
     */
    SKIPPED
  }

  public static final FetchOutcome FETCHED = new FetchOutcome(Kind.FETCHED, Duration.ZERO);
  public static final FetchOutcome FAILED = new FetchOutcome(Kind.FAILED, Duration.ZERO);
  public static final FetchOutcome DEFERRED = new FetchOutcome(Kind.DEFERRED, Duration.ZERO);
  public static final FetchOutcome SKIPPED = new FetchOutcome(Kind.SKIPPED, Duration.ZERO);

  public FetchOutcome {
    checkNotNull(kind, "kind");
    checkNotNull(retryAfter, "retryAfter");
    checkArgument(!retryAfter.isNegative(), "retryAfter (%s) must be >= 0", retryAfter);
    checkArgument(kind == Kind.RETRY_AFTER || retryAfter.isZero(), "retryAfter (%s) is only for RETRY_AFTER, not %s",
        retryAfter, kind);
  }

  public static FetchOutcome retryAfter(Duration retryAfter) {
    return new FetchOutcome(Kind.RETRY_AFTER, retryAfter);
  }
}
