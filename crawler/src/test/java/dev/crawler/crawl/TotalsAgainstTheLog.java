package dev.crawler.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.record.CrawlLogEntry;
import dev.crawler.record.CrawlOutcome;
import dev.crawler.stats.StatsSnapshot;
import java.util.List;

/** Checks a crawl's totals against its crawl log, line by line: what resumes after kills must keep exact. */
public final class TotalsAgainstTheLog {
  private TotalsAgainstTheLog() {}

  /** Pages, robots.txt fetches, every outcome and the bytes kept, each as the log's lines count them. */
  public static void assertTotalsMatch(StatsSnapshot totals, List<CrawlLogEntry> lines) {
    List<CrawlLogEntry> pages = lines.stream().filter(e -> !CrawlAssembly.ROBOTS_TXT_DETAIL.equals(e.detail())).toList();
    assertThat(totals.pages()).as("pages").isEqualTo(pages.size());
    assertThat(totals.robotsFetches()).as("robots.txt fetches").isEqualTo(lines.size() - pages.size());
    for (CrawlOutcome outcome : CrawlOutcome.values()) {
      assertThat(totals.outcome(outcome)).as(outcome.name())
          .isEqualTo(pages.stream().filter(e -> e.outcome() == outcome).count());
    }
    assertThat(totals.bytes()).as("bytes").isEqualTo(pages.stream().mapToLong(CrawlLogEntry::bytes).sum());
  }
}
