package dev.crawler.status;

import dev.crawler.record.CrawlOutcome;
import dev.crawler.stats.StatsFile;
import java.time.Instant;
import java.util.Map;

/**
 * One report as the page's charts over time need it.
 *
 * @param time seconds since the epoch, as the charts' x axis takes it
 * @param queuedUrls -1 without a frontier, as are {@code hosts} and {@code readyHosts}
 * @param outcomes pages by outcome, totals
 */
record HistoryPoint(double time, double pagesPerSecond, long pages, long queuedUrls, long hosts, long readyHosts,
    Map<CrawlOutcome, Long> outcomes) {

  static HistoryPoint of(StatsFile report) {
    var frontier = report.frontier();
    return new HistoryPoint(Instant.parse(report.time()).toEpochMilli() / 1000.0, report.pagesPerSecond(),
        report.crawl().pages(), frontier == null ? -1 : frontier.queuedUrls(), frontier == null ? -1 : frontier.hosts(),
        frontier == null ? -1 : frontier.readyHosts(), report.crawl().outcomes());
  }
}
