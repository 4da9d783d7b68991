package dev.crawler.crawl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.config.CrawlConfig;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.RequestLog;
import dev.crawler.frontier.Frontier;
import dev.crawler.record.CrawlLogEntry;
import dev.crawler.record.CrawlLogReader;
import dev.crawler.stats.StatsSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a resume must take back from the crawl folder besides the frontier and the filter: the
 * pages already spent of the limits (per host too), and seeds that a kill kept from being
 * queued. The site's request log is the truth.
 */
class ResumeStateTest {
  @TempDir Path dir;
  DemoSite site;

  @BeforeEach
  void startTheSite() throws Exception {
    site = DemoSite.start(CrawlEndToEndTest.smallSite());
  }

  @AfterEach
  void stopTheSite() {
    site.close();
  }

  private CrawlConfig config(String maxPages, String maxPagesPerHost) throws Exception {
    return CrawlEndToEndTest.config(dir.resolve("crawl"), maxPages, maxPagesPerHost);
  }

  private StopReason run(CrawlConfig config, Crawl.Start start) throws Exception {
    try (Crawl crawl = Crawl.open(config, start,
        CrawlEnvironment.standard().withDns(site.dns()).withSeeds(site.seeds()))) {
      return crawl.run();
    }
  }

  /** Page requests (robots.txt left out) per host, from the site's log. */
  private Map<String, Long> pagesPerHost() {
    Map<String, Long> pages = new HashMap<>();
    for (RequestLog.Request r : site.requests().all()) {
      if (!r.target().equals("/robots.txt")) {
        pages.merge(r.host(), 1L, Long::sum);
      }
    }
    return pages;
  }

  private long pages() {
    return pagesPerHost().values().stream().mapToLong(Long::longValue).sum();
  }

  @Test
  void aPerHostLimitHoldsAcrossAResume() throws Exception {
    assertThat(run(config("15", "10"), Crawl.Start.NEW)).isEqualTo(StopReason.MAX_PAGES);
    assertThat(pages()).isEqualTo(15);
    assertThat(run(config("unlimited", "10"), Crawl.Start.RESUME)).isEqualTo(StopReason.FINISHED);
    // www (60 pages) and docs (40) reach their limit; slow has 6 pages and a robots.txt-free
    // count below it. Before the resume counted per host, each host started again from zero.
    assertThat(pagesPerHost()).containsEntry("www.example.com", 10L).containsEntry("docs.example.com", 10L)
        .allSatisfy((host, pages) -> assertThat(pages).as(host).isLessThanOrEqualTo(10));
  }

  /** Another normal form would give every URL found again a new spelling, and refetch the whole crawl. */
  @Test
  void aResumeThatWouldSpellUrlsOtherwiseIsRefusedAndChangesNothing() throws Exception {
    assertAResumeWithIsRefused(CrawlEndToEndTest.config(dir.resolve("crawl"), "unlimited", "unlimited", 1,
        "normalize:\n  sort-query: true\n"), "normalize.sort-query: true (the crawl began with false)");
  }

  /** The URLs queued by host would stay in their queues beside the new ones by domain: a site served twice at once. */
  @Test
  void aResumeWithAnotherQueueKeyIsRefusedAndChangesNothing() throws Exception {
    assertAResumeWithIsRefused(CrawlEndToEndTest.config(dir.resolve("crawl"), "unlimited", "unlimited", 1,
        Map.of("default-delay", "0ms", "queue-by", "domain"), ""),
        "politeness.queue-by: domain (the crawl began with host)", "beyond its delay and connection limit");
  }

  /** Crawls 20 pages, is refused a resume with {@code changed} (its message holding {@code says}), then resumes as begun. */
  private void assertAResumeWithIsRefused(CrawlConfig changed, String... says) throws Exception {
    assertThat(run(config("20", "unlimited"), Crawl.Start.NEW)).isEqualTo(StopReason.MAX_PAGES);
    var refusal = assertThatThrownBy(() -> run(changed, Crawl.Start.RESUME)).isInstanceOf(CrawlStartException.class)
        .hasMessageContaining("put back the crawl's values");
    for (String text : says) {
      refusal.hasMessageContaining(text);
    }
    assertThat(pages()).as("nothing fetched by the refused resume").isEqualTo(20);
    assertThat(run(config("unlimited", "unlimited"), Crawl.Start.RESUME)).isEqualTo(StopReason.FINISHED);
  }

  /**
   * After a kill, stats.json lags the crawl log by up to one stats interval: the resume counts the
   * lines past the length the file names, so the totals stay exact.
   */
  @Test
  void theTotalsAfterAKillCountTheCrawlLogLinesPastTheLastStatsFile() throws Exception {
    Path crawl = dir.resolve("crawl");
    assertThat(run(config("10", "unlimited"), Crawl.Start.NEW)).isEqualTo(StopReason.MAX_PAGES);
    Path stale = dir.resolve("stale-stats.json");
    Files.copy(crawl.resolve("stats.json"), stale);
    assertThat(run(config("25", "unlimited"), Crawl.Start.RESUME)).isEqualTo(StopReason.MAX_PAGES);
    // As if the second run had been killed just after the first's last stats.json.
    Files.copy(stale, crawl.resolve("stats.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertThat(run(config("unlimited", "unlimited"), Crawl.Start.RESUME)).isEqualTo(StopReason.FINISHED);

    StatsSnapshot totals = StatsSnapshot.readFrom(crawl.resolve("stats.json"));
    TotalsAgainstTheLog.assertTotalsMatch(totals, CrawlLogReader.readAll(crawl.resolve("crawl.log")).stream().toList());
    assertThat(totals.crawlLogBytes()).isEqualTo(Files.size(crawl.resolve("crawl.log")));
  }

  /** A run without a crawl log left pages in stats.json only: a resume with the log on must count them too. */
  @Test
  void pagesOfARunWithoutACrawlLogStillCountAfterTheLogIsTurnedOn() throws Exception {
    CrawlConfig withoutLog = CrawlEndToEndTest.config(dir.resolve("crawl"), "20", "unlimited", 1,
        "output:\n  crawl-log: false\n");
    assertThat(run(withoutLog, Crawl.Start.NEW)).isEqualTo(StopReason.MAX_PAGES);
    assertThat(run(config("30", "unlimited"), Crawl.Start.RESUME)).isEqualTo(StopReason.MAX_PAGES);
    assertThat(pages()).isEqualTo(30);
  }

  @Test
  void theTotalLimitCountsFromTheCrawlLogNotFromAStaleStatsFile() throws Exception {
    assertThat(run(config("20", "unlimited"), Crawl.Start.NEW)).isEqualTo(StopReason.MAX_PAGES);
    // After a kill, stats.json is up to one stats interval behind; here it is gone altogether.
    Files.delete(dir.resolve("crawl").resolve("stats.json"));
    assertThat(run(config("30", "unlimited"), Crawl.Start.RESUME)).isEqualTo(StopReason.MAX_PAGES);
    assertThat(pages()).isEqualTo(30);
  }

  @Test
  void aCrawlKilledBeforeItsSeedsWereQueuedQueuesThemOnResume() throws Exception {
    CrawlConfig config = config("unlimited", "unlimited");
    Path crawl = dir.resolve("crawl");
    // The folder as a kill leaves it after the stores were created and before the seeds were
    // queued: seeds.txt written, an empty frontier, an empty filter, no seeds.queued.
    Files.createDirectories(crawl);
    Files.write(crawl.resolve("seeds.txt"), site.seeds(), StandardCharsets.UTF_8);
    Frontier.open(crawl.resolve("frontier"), CrawlSetup.frontier(config)).close();
    UrlSeenService.open(CrawlSetup.seen(config, crawl.resolve("seen"))).close();

    assertThat(run(config, Crawl.Start.RESUME)).isEqualTo(StopReason.FINISHED);
    Map<String, Long> fetched = site.requests().countsByUrl();
    assertThat(fetched.keySet()).containsExactlyInAnyOrderElementsOf(
        site.expectedFetches(CrawlEndToEndTest.IN_SCOPE));
    assertThat(fetched).allSatisfy((url, times) -> assertThat(times).as(url).isEqualTo(1));
    assertThat(crawl.resolve("seeds.queued")).exists();
  }

  @Test
  void aSeedAlreadyQueuedIsNotQueuedTwiceWhenTheMarkIsMissing() throws Exception {
    CrawlConfig config = config("5", "unlimited");
    assertThat(run(config, Crawl.Start.NEW)).isEqualTo(StopReason.MAX_PAGES);
    // A crawl from before seeds.queued existed, or one killed between queueing and marking.
    Files.delete(dir.resolve("crawl").resolve("seeds.queued"));
    assertThat(run(config("unlimited", "unlimited"), Crawl.Start.RESUME)).isEqualTo(StopReason.FINISHED);
    List<String> seedsFetchedTwice = site.seeds().stream()
        .filter(seed -> site.requests().countsByUrl().getOrDefault(seed, 0L) > 1).toList();
    assertThat(seedsFetchedTwice).isEmpty();
  }
}
