package dev.crawler.crawl;

import dev.crawler.record.CrawlLogReader;
import dev.crawler.stats.CrawlStats;
import dev.crawler.stats.StatsSnapshot;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What a killed crawl logged after its last stats.json: that file is rewritten every
 * {@code stats.interval}, so after a kill -9 it lags by up to one interval. Its counters stand for
 * the crawl log up to a length ({@link StatsSnapshot#crawlLogBytes}); the lines after it are
 * counted here, so a resumed crawl's pages, outcomes, statuses, bytes and robots.txt fetches go
 * on exactly. Links are not in the log: their counts stay as stats.json had them.
 */
final class LoggedSinceStats {
  /**
   * @param counts the lines' counters
   * @param lines the lines counted (lines that are no crawl-log lines, or a last one cut short,
   *     are not: their visits were not settled)
   */
  record Tail(StatsSnapshot counts, long lines) {}

  private LoggedSinceStats() {}

  /**
   * Counts the crawl log's lines from {@code from}: {@link StatsSnapshot#crawlLogBytes} of the
   * saved stats, or 0 for a crawl with no stats.json yet. Nothing is counted if {@code from} is
   * unknown (-1, a stats.json of an earlier build) or begins no line of the log (the log
   * replaced since).
   */
  static Tail count(Path crawlLog, long from) throws IOException {
    if (from < 0) {
      return new Tail(StatsSnapshot.EMPTY, 0);
    }
    CrawlStats stats = new CrawlStats();
    long[] lines = new long[1];
    CrawlLogReader.forEach(crawlLog, from, entry -> {
      lines[0]++;
      if (CrawlAssembly.ROBOTS_TXT_DETAIL.equals(entry.detail())) {
        stats.robotsFetch();
      } else {
        stats.page(entry.outcome(), entry.httpStatus(), entry.bytes());
      }
    });
    return new Tail(stats.snapshot(), lines[0]);
  }
}
