package dev.crawler.visit;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import dev.crawler.frontier.FetchOutcome;
import dev.crawler.frontier.Lease;
import dev.crawler.record.CrawlOutcome;
import java.time.Duration;

/**
 * How often each URL has been put back to be tried later (429 or 503, its host's robots.txt
 * unavailable). Without a limit a host that answers 503 forever, or whose robots.txt never comes
 * (no DNS, nothing listening, a broken TLS port), keeps its URLs queued and the crawl never
 * finishes. Nutch gives up after 3 (db.fetch.retry.max), Heritrix after 30. In memory only, so a
 * resumed crawl tries them afresh.
 */
final class Retries {
  /** Times one URL is put back before it is given up. */
  static final int MAX_RETRIES = 5;
  /** URLs whose retries are counted at once; one evicted early only gets its retries again. */
  private static final int TRACKED = 100_000;

  private final Cache<String, Integer> counts = CacheBuilder.newBuilder().maximumSize(TRACKED).build();

  /**
   * Puts the URL back in its queue to wait {@code wait}, or gives it up (the host backs off as
   * after a failure) once it has been put back {@link #MAX_RETRIES} times.
   *
   * @param cause what went wrong, for the crawl log; may be null
   */
  Step.Done retryLater(Lease lease, CrawlOutcome outcome, Duration wait, String cause) {
    int before = counts.asMap().getOrDefault(lease.url(), 0);
    if (before >= MAX_RETRIES) {
      counts.invalidate(lease.url());
      return new Step.Done(outcome, FetchOutcome.FAILED, Notes.join(cause, "given up after " + MAX_RETRIES + " retries"));
    }
    counts.put(lease.url(), before + 1);
    return new Step.Done(outcome, FetchOutcome.retryAfter(wait), cause);
  }

  /** Forgets the URL's retries: it is done with (fetched, failed, skipped), not put back. */
  void ended(Lease lease, FetchOutcome scheduling) {
    if (scheduling.kind() != FetchOutcome.Kind.RETRY_AFTER && scheduling.kind() != FetchOutcome.Kind.DEFERRED) {
      counts.invalidate(lease.url());
    }
  }
}
