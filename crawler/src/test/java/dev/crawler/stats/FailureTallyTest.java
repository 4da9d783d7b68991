package dev.crawler.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.record.CrawlOutcome;
import org.junit.jupiter.api.Test;

class FailureTallyTest {
  @Test
  void errorAnswersAndUnansweredRequestsAreCountedByStatusClassAndOutcomeWithTheirFirstUrls() {
    FailureTally tally = new FailureTally();
    for (int i = 0; i < 5; i++) {
      tally.visit(CrawlOutcome.FETCHED, 404, "http://a.example/missing/" + i);
    }
    tally.visit(CrawlOutcome.RETRY_LATER, 503, "http://b.example:8080/busy");
    tally.visit(CrawlOutcome.TIMEOUT, 0, "http://b.example:8080/slow");
    tally.visit(CrawlOutcome.FETCHED, 200, "http://a.example/");
    tally.visit(CrawlOutcome.REDIRECT, 301, "http://a.example/old");
    tally.visit(CrawlOutcome.ROBOTS_DENIED, 0, "http://a.example/private");

    FailureSummary f = tally.summary();

    assertThat(f.total()).isEqualTo(7);
    assertThat(f.kinds()).containsExactly(
        new FailureSummary.KindCount("4xx", CrawlOutcome.FETCHED, 5,
            java.util.List.of("404 http://a.example/missing/0", "404 http://a.example/missing/1",
                "404 http://a.example/missing/2")),
        new FailureSummary.KindCount("5xx", CrawlOutcome.RETRY_LATER, 1, java.util.List.of("503 http://b.example:8080/busy")),
        new FailureSummary.KindCount("no answer", CrawlOutcome.TIMEOUT, 1, java.util.List.of("http://b.example:8080/slow")));
    assertThat(f.hosts()).containsExactly(new FailureSummary.HostCount("a.example", 5),
        new FailureSummary.HostCount("b.example:8080", 2));
    assertThat(f.hostCountsExact()).isTrue();
  }

  @Test
  void theHostWithTheMostFailuresIsFoundAmongTensOfThousandsInBoundedMemory() {
    FailureTally tally = new FailureTally();
    for (int i = 0; i < 50_000; i++) {
      tally.visit(CrawlOutcome.FETCHED, 500, "http://host" + i + ".example/");
      if (i % 100 == 0) {
        tally.visit(CrawlOutcome.FETCHED, 500, "http://failing.example/" + i);
      }
    }

    FailureSummary f = tally.summary();

    assertThat(f.total()).isEqualTo(50_500);
    assertThat(f.hosts()).hasSize(FailureTally.HOSTS_SHOWN);
    assertThat(f.hosts().get(0).host()).isEqualTo("failing.example");
    assertThat(f.hosts().get(0).failures()).isGreaterThanOrEqualTo(500);
    assertThat(f.hostCountsExact()).isFalse();
    assertThat(f.kinds()).singleElement().satisfies(k -> assertThat(k.examples()).hasSize(FailureTally.EXAMPLES));
  }
}
