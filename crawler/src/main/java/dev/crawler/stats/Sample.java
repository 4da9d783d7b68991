package dev.crawler.stats;

import dev.crawler.dedup.UrlSeenStats;
import dev.crawler.frontier.FrontierStats;
import java.time.Duration;
import java.time.Instant;

/**
 * Everything the stats line is made of, taken at one time.
 *
 * @param frontier null when no frontier was given or it could not answer
 * @param seen null when no URL-seen service was given or it could not answer
 * @param failures this run's failures
 */
record Sample(Instant time, StatsSnapshot crawl, FrontierStats frontier, UrlSeenStats seen, FailureSummary failures) {

  /** A sample without failures. */
  Sample(Instant time, StatsSnapshot crawl, FrontierStats frontier, UrlSeenStats seen) {
    this(time, crawl, frontier, seen, FailureSummary.NONE);
  }

  /** Pages requested per second from {@code earlier} to this sample; 0 when no time passed. */
  double pagesPerSecondSince(Sample earlier) {
    double seconds = Duration.between(earlier.time, time).toNanos() / 1e9;
    return seconds <= 0 ? 0 : (crawl.requested() - earlier.crawl.requested()) / seconds;
  }
}
