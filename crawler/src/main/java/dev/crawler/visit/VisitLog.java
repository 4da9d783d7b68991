package dev.crawler.visit;

import dev.crawler.fetch.FetchResult;
import dev.crawler.frontier.Lease;
import dev.crawler.record.CrawlLog;
import dev.crawler.record.CrawlLogEntry;
import dev.crawler.record.CrawlOutcome;
import dev.crawler.stats.CrawlStats;
import dev.crawler.stats.VisitWatch;
import java.time.Duration;
import java.time.Instant;

/** A visit's line in the crawl log, and its count in the stats: one of each, together. */
final class VisitLog {
  private final CrawlLog crawlLog;   // null when output.crawl-log is off
  private final CrawlStats stats;
  private final VisitWatch watch;

  VisitLog(CrawlLog crawlLog, CrawlStats stats, VisitWatch watch) {
    this.crawlLog = crawlLog;
    this.stats = stats;
    this.watch = watch;
  }

  void record(Lease lease, CrawlOutcome outcome, FetchResult result, String detail) {
    int status = result == null ? 0 : result.httpStatus();
    long bytes = result == null ? 0 : result.body().length;
    // Counted once logged, with the line under the log's lock (see CrawlStats.countWith): a line
    // that cannot be written (a full disk) leaves the lease open, and the resume visits and counts
    // the URL again.
    Runnable count = () -> stats.page(outcome, status, bytes);
    stats.visited(outcome, status, lease.url());
    Duration took = result == null ? Duration.ZERO : result.duration();
    if (crawlLog == null) {
      count.run();
    } else {
      crawlLog.log(new CrawlLogEntry(result == null ? Instant.now() : result.startedAt(), outcome, status, bytes,
          took, lease.url(), lease.via(), result == null ? null : result.contentType(), lease.depth(), detail), count);
    }
    watch.visited(lease.hostKey(), lease.url(), outcome, status, result == null ? null : took, detail);
  }
}
