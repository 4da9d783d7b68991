package dev.crawler.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.record.CrawlOutcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CrawlStatsTest {
  @Test
  void countersAreExactUnderConcurrentUpdates() throws InterruptedException {
    CrawlStats stats = new CrawlStats();
    int threads = 8;
    int perThread = 20_000;
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      workers.add(Thread.ofPlatform().start(() -> {
        for (int i = 0; i < perThread; i++) {
          switch (i % 4) {
            case 0 -> stats.page(CrawlOutcome.FETCHED, 200, 100);
            case 1 -> stats.page(CrawlOutcome.REDIRECT, 301, 0);
            case 2 -> stats.page(CrawlOutcome.FETCHED, 404, 10);
            default -> stats.page(CrawlOutcome.TIMEOUT, 0, 0);
          }
          stats.links(i % 2 == 0 ? LinkVerdict.NEW : LinkVerdict.DUPLICATE, 1);
          if (i % 100 == 0) {
            stats.robotsFetch();
          }
        }
      }));
    }
    for (Thread worker : workers) {
      worker.join();
    }

    StatsSnapshot s = stats.snapshot();
    long quarter = threads * perThread / 4;
    assertThat(s.pages()).isEqualTo(threads * perThread);
    assertThat(s.bytes()).isEqualTo(quarter * 110);
    assertThat(s.outcome(CrawlOutcome.FETCHED)).isEqualTo(2 * quarter);
    assertThat(s.outcome(CrawlOutcome.REDIRECT)).isEqualTo(quarter);
    assertThat(s.outcome(CrawlOutcome.TIMEOUT)).isEqualTo(quarter);
    assertThat(s.statuses()).isEqualTo(new StatsSnapshot.StatusClasses(0, quarter, quarter, quarter, 0, 0));
    assertThat(s.links(LinkVerdict.NEW)).isEqualTo(threads * perThread / 2);
    assertThat(s.linksTotal()).isEqualTo(threads * perThread);
    assertThat(s.robotsFetches()).isEqualTo(threads * perThread / 100);
  }

  @Test
  void aStatusOutside100To599CountsAsOtherAndNoStatusCountsNowhere() {
    CrawlStats stats = new CrawlStats();
    stats.page(CrawlOutcome.FETCHED, 999, 1);
    stats.page(CrawlOutcome.FETCHED, 99, 1);
    stats.page(CrawlOutcome.FETCHED, 100, 1);
    stats.page(CrawlOutcome.FETCHED, 599, 1);
    stats.page(CrawlOutcome.DNS_FAILURE, 0, 0);

    assertThat(stats.snapshot().statuses()).isEqualTo(new StatsSnapshot.StatusClasses(1, 0, 0, 0, 1, 2));
    assertThat(stats.snapshot().pages()).isEqualTo(5);
  }

  @Test
  void aResumedCrawlContinuesItsTotalsAndASecondRestoreReplacesTheFirst() {
    CrawlStats before = new CrawlStats();
    before.page(CrawlOutcome.FETCHED, 200, 1000);
    before.links(LinkVerdict.NEW, 1);
    before.robotsFetch();
    StatsSnapshot saved = before.snapshot();

    CrawlStats resumed = new CrawlStats();
    resumed.restore(saved);
    resumed.restore(saved);
    resumed.page(CrawlOutcome.FETCHED, 200, 500);

    StatsSnapshot s = resumed.snapshot();
    assertThat(s.pages()).isEqualTo(2);
    assertThat(s.bytes()).isEqualTo(1500);
    assertThat(s.outcome(CrawlOutcome.FETCHED)).isEqualTo(2);
    assertThat(s.statuses().successful()).isEqualTo(2);
    assertThat(s.links(LinkVerdict.NEW)).isEqualTo(1);
    assertThat(s.robotsFetches()).isEqualTo(1);
  }

  @Test
  void aSnapshotHoldsEveryOutcomeAndVerdictInEnumOrder() {
    StatsSnapshot s = new CrawlStats().snapshot();
    assertThat(s.outcomes().keySet()).containsExactly(CrawlOutcome.values());
    assertThat(s.links().keySet()).containsExactly(LinkVerdict.values());
    assertThat(s).isEqualTo(StatsSnapshot.EMPTY);
  }
}
