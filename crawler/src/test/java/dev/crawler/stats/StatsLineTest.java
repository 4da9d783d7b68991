package dev.crawler.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.dedup.UrlSeenStats;
import dev.crawler.frontier.FrontierStats;
import dev.crawler.record.CrawlOutcome;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatsLineTest {
  private static final Instant T0 = Instant.parse("2025-05-01T12:00:00Z");

  /** The example of the design notes, number for number: 12,418 pages requested, 40 more denied by robots.txt. */
  static StatsSnapshot crawl() {
    Map<CrawlOutcome, Long> outcomes = new EnumMap<>(CrawlOutcome.class);
    outcomes.put(CrawlOutcome.FETCHED, 11_960L);
    outcomes.put(CrawlOutcome.REDIRECT, 240L);
    outcomes.put(CrawlOutcome.TIMEOUT, 12L);
    outcomes.put(CrawlOutcome.CONNECTION_REFUSED, 3L);
    outcomes.put(CrawlOutcome.CONNECTION_RESET, 16L);
    outcomes.put(CrawlOutcome.ROBOTS_DENIED, 40L);
    outcomes.put(CrawlOutcome.RETRY_LATER, 10L);
    outcomes.put(CrawlOutcome.TRUNCATED, 177L);
    Map<LinkVerdict, Long> links = new EnumMap<>(LinkVerdict.class);
    links.put(LinkVerdict.NEW, 310_000L);
    links.put(LinkVerdict.DUPLICATE, 1_700_000L);
    links.put(LinkVerdict.OFF_SITE, 80_000L);
    links.put(LinkVerdict.EXCLUDED, 8_000L);
    return new StatsSnapshot(12_458, 113_000_000, outcomes,
        new StatsSnapshot.StatusClasses(0, 11_800, 240, 120, 10, 0), links, 8_211);
  }

  static final FrontierStats FRONTIER = new FrontierStats(1_204_113, 8_211, 412, 32, 12_000, 10, 31);
  static final UrlSeenStats VERIFY = new UrlSeenStats(2_098_000, 310_000, 1_788_000, 900_000, 5_000, 4_200, 3, 0,
      1, 310_000, 100_000_000, 0.11, 4e-7, 600_000_000, List.of());
  static final UrlSeenStats ACCEPT = new UrlSeenStats(2_098_000, 310_000, 1_788_000, 900_000, 5_000, 0, 0, 1_234.4,
      2, 1_500_000, 3_000_000, 0.5, 0.004, 600_000_000, List.of());

  /** 12,418 pages in 13.072 s: 950/s on average; 10,320 of them in the last 10 s: 1,032/s. */
  private static Sample start() {
    return new Sample(T0, StatsSnapshot.EMPTY, null, null);
  }

  private static Sample previous() {
    return new Sample(T0.plusMillis(3_072), new StatsSnapshot(2_098, 0, null, null, null, 0), null, null);
  }

  @Test
  void aFixedSnapshotGivesTheExpectedLine() {
    Sample now = new Sample(T0.plusMillis(13_072), crawl(), FRONTIER, VERIFY);

    assertThat(StatsLine.format(start(), previous(), now)).isEqualTo(
        "pages 12,418 (+1,032/s, avg 950/s) | 108 MB | 2xx 97% 3xx 2% 4xx 1% 5xx 0%"
            + " | errors 31 (timeout 12, refused 3, reset 16) | robots denied 40, truncated 177, retry later 10"
            + " | frontier 1,204,113 URLs, 8,211 hosts (412 ready, 32 leased)"
            + " | links 2.1M: new 310k, dup 1.7M, out of scope 88k"
            + " | filter 310k of 100M URLs (11% of bits set), est. fp <0.0001% | verified fp 3");
  }

  @Test
  void underTheAcceptPolicyTheLineEstimatesSkipsInsteadOfVerifying() {
    Sample now = new Sample(T0.plusMillis(13_072), crawl(), FRONTIER, ACCEPT);

    assertThat(StatsLine.format(start(), previous(), now))
        .endsWith(" | filter 1.5M of 3.0M URLs in 2 filters (50% of bits set), est. fp 0.4% | ~1.2k skipped");
  }

  @Test
  void aCrawlThatHasNotStartedShowsZerosAndLeavesOutWhatItWasNotGiven() {
    Sample now = new Sample(T0, StatsSnapshot.EMPTY, null, null);

    assertThat(StatsLine.format(now, now, now)).isEqualTo(
        "pages 0 (+0.0/s, avg 0.0/s) | 0 B | 2xx 0% 3xx 0% 4xx 0% 5xx 0% | errors 0 | robots denied 0"
            + " | links 0: new 0, dup 0, out of scope 0");
  }

  @Test
  void unusualStatusesTrapsAndInvalidLinksAppearOnlyWhenTheyHappen() {
    Map<LinkVerdict, Long> links = new EnumMap<>(LinkVerdict.class);
    links.put(LinkVerdict.TOO_DEEP, 5L);
    links.put(LinkVerdict.TOO_LONG, 1L);
    links.put(LinkVerdict.REPEATED_SEGMENTS, 2L);
    links.put(LinkVerdict.REJECTED, 7L);
    StatsSnapshot s = new StatsSnapshot(4, 0, Map.of(CrawlOutcome.FETCHED, 4L),
        new StatsSnapshot.StatusClasses(1, 2, 0, 0, 0, 1), links, 0);
    Sample now = new Sample(T0.plusSeconds(1), s, null, null);

    assertThat(StatsLine.format(start(), start(), now)).isEqualTo(
        "pages 4 (+4.0/s, avg 4.0/s) | 0 B | 1xx 25% 2xx 50% 3xx 0% 4xx 0% 5xx 0% other 25% | errors 0"
            + " | robots denied 0 | links 15: new 0, dup 0, out of scope 0, too deep 5, traps 3, invalid 7");
  }

  @Test
  void theSummaryHasTotalsDurationRateAndATableOfOutcomes() {
    FailureSummary failures = new FailureSummary(23, List.of(
        new FailureSummary.KindCount("4xx", CrawlOutcome.FETCHED, 20, List.of("404 http://www.example.com/a",
            "404 http://www.example.com/b", "410 http://docs.example.com/c")),
        new FailureSummary.KindCount("no answer", CrawlOutcome.TIMEOUT, 3, List.of("http://slow.example.com/"))),
        List.of(new FailureSummary.HostCount("www.example.com", 15), new FailureSummary.HostCount("docs.example.com", 5),
            new FailureSummary.HostCount("slow.example.com", 3)), true);
    Sample end = new Sample(T0.plusSeconds(3723), crawl(), FRONTIER, VERIFY, failures);

    assertThat(StatsSummary.lines(start(), end)).containsExactly(
        "Crawl summary: 12,418 pages requested in 1h 02m 03s, avg 3.3 pages/s, 108 MB kept,"
            + " 2xx 97% 3xx 2% 4xx 1% 5xx 0%",
        "  FETCHED                    11,960   96.3%",
        "  TRUNCATED                     177    1.4%",
        "  REDIRECT                      240    1.9%",
        "  RETRY_LATER                    10    0.1%",
        "  TIMEOUT                        12    0.1%",
        "  CONNECTION_REFUSED              3    0.0%",
        "  CONNECTION_RESET               16    0.1%",
        "  not requested: ROBOTS_DENIED 40",
        "  failures 23: 4xx FETCHED 20, no answer TIMEOUT 3",
        "    4xx FETCHED, e.g. 404 http://www.example.com/a, 404 http://www.example.com/b, 410 http://docs.example.com/c",
        "    no answer TIMEOUT, e.g. http://slow.example.com/",
        "    most failures: www.example.com 15, docs.example.com 5, slow.example.com 3",
        "  links 2,098,000: new 310,000, dup 1,700,000, out of scope 88,000"
            + " (out of scope: off site 80,000, excluded 8,000); robots.txt fetches 8,211",
        "  frontier: 1,204,113 URLs left in 8,211 hosts; 12,000 done, 10 retried, 31 failed over its life",
        "  URL-seen: 2,098,000 checks, 310,000 new; filter holds 310,000 of the 100,000,000 URLs it is sized for"
            + " (11% of bits set) in 1 filter of 572 MB, est. fp <0.0001%, verified fp 3");
  }

  @Test
  void urlsNeverRequestedAreNotPagesAndOneHostIsOneHost() {
    StatsSnapshot s = new StatsSnapshot(325, 4_700_000, Map.of(CrawlOutcome.FETCHED, 240L, CrawlOutcome.REDIRECT, 10L,
        CrawlOutcome.ROBOTS_DENIED, 75L), new StatsSnapshot.StatusClasses(0, 240, 10, 0, 0, 0), Map.of(), 3);
    Sample end = new Sample(T0.plusSeconds(10), s, new FrontierStats(1, 1, 1, 0, 325, 0, 0), null);

    assertThat(StatsLine.format(start(), start(), end))
        .startsWith("pages 250 (+25/s, avg 25/s) | 4.5 MB |")
        .contains("| robots denied 75 | frontier 1 URL, 1 host (1 ready, 0 leased) |");
    assertThat(StatsSummary.lines(start(), end)).containsExactly(
        "Crawl summary: 250 pages requested in 10s, avg 25 pages/s, 4.5 MB kept, 2xx 96% 3xx 4% 4xx 0% 5xx 0%",
        "  FETCHED                       240   96.0%",
        "  REDIRECT                       10    4.0%",
        "  not requested: ROBOTS_DENIED 75",
        "  failures: none (no 4xx or 5xx answer, no request without one)",
        "  links 0: new 0, dup 0, out of scope 0; robots.txt fetches 3",
        "  frontier: 1 URL left in 1 host; 325 done, 0 retried, 0 failed over its life");
  }

  @Test
  void theSummaryOfAResumedCrawlSaysWhatThisRunDid() {
    Sample restored = new Sample(T0, new StatsSnapshot(10_000, 0, null, null, null, 0), null, null);
    Sample end = new Sample(T0.plusSeconds(10), crawl(), null, null);

    assertThat(StatsSummary.lines(restored, end)).first().asString().startsWith(
        "Crawl summary: 12,418 pages requested by the whole crawl, 2,418 of them in this run's 10s, avg 242 pages/s,"
            + " 108 MB kept,");
    assertThat(StatsSummary.lines(restored, end)).contains(
        "  failures this run: none (no 4xx or 5xx answer, no request without one)");
  }
}
