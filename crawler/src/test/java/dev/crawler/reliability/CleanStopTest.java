package dev.crawler.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import dev.crawler.demo.RequestLog;
import dev.crawler.record.CrawlLogEntry;
import dev.crawler.record.CrawlLogReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM to a real {@code crawler crawl} process: the CLI's shutdown hook stops the crawl
 * cleanly (fetches in flight finish and are recorded, the filter is saved, the stores closed),
 * and {@code crawler resume} then refetches nothing.
 */
class CleanStopTest {
  static final Duration LIMIT = Duration.ofSeconds(90);

  static DemoSite site;
  static int stoppedExit;
  static String stoppedOutput;
  static int requestsAtStop;
  static int resumedExit;
  static String resumedOutput;
  static List<RequestLog.Request> resumedRequests;
  static List<CrawlLogEntry> crawlLog;

  private static Path configFile;

  @BeforeAll
  static void stopWithSigtermThenResume(@TempDir Path dir) throws Exception {
    site = DemoSite.start(DemoSiteSpec.generated(20, 60).withPageShape(24, 4_000));
    Path config = CrawlerProcess.config(dir, 8, 10_000);
    configFile = config;
    Path hosts = CrawlerProcess.hostsFile(site, dir);
    RequestLog log = site.requests();
    int expected = site.expectedFetches(host -> true).size();

    CrawlerProcess crawl = CrawlerProcess.start(dir, "crawl", hosts,
        "crawl", "--config", config.toString(), "--seeds", CrawlerProcess.seedFile(site, dir).toString());
    while (log.size() < expected / 3) {
      assertThat(crawl.isAlive()).as("the crawl ended before the SIGTERM: %s", crawl.output()).isTrue();
      Thread.sleep(5);
    }
    stoppedExit = crawl.terminate(LIMIT);
    stoppedOutput = crawl.output();
    requestsAtStop = log.size();

    CrawlerProcess resume = CrawlerProcess.start(dir, "resume", hosts, "resume", "--config", config.toString());
    resumedExit = resume.waitFor(LIMIT);
    resumedOutput = resume.output();
    List<RequestLog.Request> all = log.all();
    resumedRequests = all.subList(requestsAtStop, all.size());
    crawlLog = CrawlLogReader.readAll(dir.resolve("crawl").resolve("crawl.log")).stream().toList();
  }

  @AfterAll
  static void stopTheSite() {
    if (site != null) {
      site.close();
    }
  }

  /** 143 = 128 + SIGTERM: a JVM that shuts down on a signal exits with it, whatever System.exit was asked. */
  @Test
  void sigtermStopsTheCrawlCleanlyAndExitsWith143() {
    assertThat(stoppedExit).as(stoppedOutput).isEqualTo(143);
    assertThat(stoppedOutput).contains("Stopping: stopped on request").contains("Crawl summary")
        .contains("Crawl ended: stopped on request.")
        .contains("Continue it with: bin/crawler resume --config " + configFile + "\n")
        .doesNotContain("\tat ").doesNotContain("Exception");
  }

  @Test
  void theResumeLoadsTheSavedFilterAndFinishes() {
    assertThat(resumedExit).as(resumedOutput).isZero();
    assertThat(resumedOutput).contains("filter loaded (clean stop)").contains("Crawl ended: the frontier is empty.");
  }

  @Test
  void theResumeRefetchesNoPageTheStoppedCrawlFetched() {
    Map<String, Long> before = new HashMap<>();
    site.requests().all().subList(0, requestsAtStop).forEach(r -> before.merge(r.host() + r.target(), 1L, Long::sum));
    assertThat(before).as("no page twice before the stop").allSatisfy((url, n) -> assertThat(n).as(url).isEqualTo(1));
    assertThat(resumedRequests).isNotEmpty()
        .filteredOn(r -> !r.target().equals("/robots.txt"))   // each process reads robots.txt again
        .allSatisfy(r -> assertThat(before).as("requested again after the resume").doesNotContainKey(r.host() + r.target()));
  }

  @Test
  void everyReachablePageIsRequestedOnceOverBothRuns() {
    Map<String, Long> counts = new HashMap<>(site.requests().countsByUrl());
    counts.keySet().removeIf(url -> url.endsWith("/robots.txt"));
    assertThat(counts.keySet()).containsExactlyInAnyOrderElementsOf(
        site.expectedFetches(host -> true).stream().filter(url -> !url.endsWith("/robots.txt")).toList());
    assertThat(counts).allSatisfy((url, n) -> assertThat(n).as(url).isEqualTo(1));
  }

  @Test
  void theCrawlLogSettlesEachPageOnce() {
    assertThat(crawlLog).extracting(CrawlLogEntry::url).filteredOn(url -> !url.endsWith("/robots.txt"))
        .doesNotHaveDuplicates()
        .hasSize((int) site.expectedFetches(host -> true).stream().filter(url -> !url.endsWith("/robots.txt")).count());
  }
}
