package dev.crawler.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.demo.DemoHost;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import dev.crawler.demo.RequestLog;
import dev.crawler.record.CrawlLogEntry;
import dev.crawler.record.CrawlLogReader;
import dev.crawler.record.CrawlOutcome;
import dev.crawler.stats.LinkVerdict;
import dev.crawler.stats.StatsSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole crawls of the demo site on loopback, checked against the site's own request log: what
 * the servers saw is the truth, not what the crawler says it did.
 */
class CrawlEndToEndTest {
  static final Duration SLOW_DELAY = Duration.ofMillis(300);
  static final Predicate<String> IN_SCOPE = host -> host.endsWith(".example.com");

  static DemoSite site;
  static StopReason reason;
  static Map<String, Long> fetched;
  static Path crawlDir;
  static StatsSnapshot stats;

  @BeforeAll
  static void crawlTheSite(@TempDir Path dir) throws Exception {
    site = DemoSite.start(smallSite());
    crawlDir = dir.resolve("crawl");
    try (Crawl crawl = open(crawlDir, "unlimited", Crawl.Start.NEW)) {
      reason = crawl.run();
      stats = crawl.stats();
    }
    fetched = site.requests().countsByUrl();
  }

  @AfterAll
  static void stopTheSite() {
    site.close();
  }

  /** The demo's shape, smaller: a Crawl-delay host with few pages keeps the test short. */
  static DemoSiteSpec smallSite() {
    return new DemoSiteSpec(List.of(
        new DemoHost("www.example.com", 60, null, List.of("/private/"), true),
        new DemoHost("docs.example.com", 40, null, List.of(), false),
        new DemoHost("slow.example.com", 6, SLOW_DELAY, List.of(), false),
        new DemoHost("www.example.org", 10, null, List.of(), false, false)));
  }

  static Crawl open(Path dir, String maxPages, Crawl.Start start) throws Exception {
    return open(dir, maxPages, 1, start);
  }

  static Crawl open(Path dir, String maxPages, int partitions, Crawl.Start start) throws Exception {
    CrawlConfig config = config(dir, maxPages, "unlimited", partitions);
    return Crawl.open(config, start, CrawlEnvironment.standard().withDns(site.dns()).withSeeds(site.seeds()));
  }

  static CrawlConfig config(Path dir, String maxPages, String maxPagesPerHost) throws Exception {
    return config(dir, maxPages, maxPagesPerHost, 1);
  }

  static CrawlConfig config(Path dir, String maxPages, String maxPagesPerHost, int partitions) throws Exception {
    return config(dir, maxPages, maxPagesPerHost, partitions, "");
  }

  /** The tests' configuration: no delay (Crawl-delay still applies), 8 workers, loopback allowed; then {@code more} sections. */
  static CrawlConfig config(Path dir, String maxPages, String maxPagesPerHost, int partitions, String more)
      throws Exception {
    return config(dir, maxPages, maxPagesPerHost, partitions, Map.of("default-delay", "0ms"), more);
  }

  /** As above, with these {@code politeness} keys instead of no delay. */
  static CrawlConfig config(Path dir, String maxPages, String maxPagesPerHost, int partitions,
      Map<String, String> politeness, String more) throws Exception {
    StringBuilder politenessKeys = new StringBuilder();
    politeness.forEach((key, value) -> politenessKeys.append("  ").append(key).append(": ").append(value).append('\n'));
    String yaml = """
        status:
          listen: 127.0.0.1:0   # any free port: test crawls run side by side
        crawl:
          data-dir: '%s'
          user-agent:
            name: test-crawler
          limits:
            max-pages: %s
            max-pages-per-host: %s
        politeness:
        %s\
        fetch:
          workers: 8
        frontier:
          partitions: %s
        scope:
          allow-private-addresses: true
        seen:
          expected-urls: 100_000
        stats:
          interval: 500ms
        """.formatted(dir, maxPages, maxPagesPerHost, politenessKeys, partitions) + more;
    return ConfigLoader.parse(yaml, "test", dir.getParent());
  }

  @Test
  void theCrawlEndsWhenTheFrontierIsEmpty() {
    assertThat(reason).isEqualTo(StopReason.FINISHED);
  }

  /** Links are counted a page at a time; the totals must still add up to what the crawl did. */
  @Test
  void everyUrlTakenFromTheFrontierWasCountedAsANewLinkOnce() {
    assertThat(stats.links(LinkVerdict.NEW)).isEqualTo(stats.pages());
    assertThat(stats.links(LinkVerdict.OFF_SITE)).as("the site links to hosts outside the seeds'").isPositive();
    assertThat(stats.links(LinkVerdict.DUPLICATE)).as("pages link to each other").isGreaterThan(stats.pages());
  }

  @Test
  void everyReachableAllowedUrlIsFetchedExactlyOnce() {
    Set<String> expected = site.expectedFetches(IN_SCOPE);
    assertThat(fetched.keySet()).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(fetched).allSatisfy((url, times) -> assertThat(times).as(url).isEqualTo(1));
  }

  @Test
  void noDisallowedPathIsRequested() {
    assertThat(fetched.keySet()).noneMatch(url -> url.contains("/private/"));
  }

  @Test
  void crawlDelayGapsAreRespected() {
    assertThat(site.requests().minGap("slow.example.com")).isGreaterThanOrEqualTo(SLOW_DELAY.minusMillis(5));
  }

  @Test
  void neverMoreThanOneConnectionToAHostAtOnce() {
    for (String host : List.of("www.example.com", "docs.example.com", "slow.example.com")) {
      assertThat(site.requests().maxConcurrent(host)).as(host).isEqualTo(1);
    }
  }

  @Test
  void theOutOfScopeHostIsNeverContacted() {
    assertThat(site.requests().all()).noneMatch(r -> r.host().equals("www.example.org"));
  }

  @Test
  void theCrawlLogHasOneLinePerUrlTakenFromTheFrontier() throws Exception {
    List<CrawlLogEntry> entries = CrawlLogReader.readAll(crawlDir.resolve("crawl.log")).stream().toList();
    assertThat(entries).extracting(CrawlLogEntry::url).doesNotHaveDuplicates();
    assertThat(entries).filteredOn(e -> e.outcome() == CrawlOutcome.ROBOTS_DENIED).isNotEmpty()
        .allSatisfy(e -> assertThat(e.url()).contains("/private/"));
    assertThat(entries).filteredOn(e -> e.outcome() == CrawlOutcome.REDIRECT).isNotEmpty();
    assertThat(entries).filteredOn(e -> e.depth() > 0).allSatisfy(e -> assertThat(e.via()).isNotNull());
  }

  /**
   * Read back with jwarc: one response record for every URL the site served, each with the bytes
   * the site sends for that URL (fetched again here, outside the crawl) and a payload digest that
   * is theirs.
   */
  @Test
  void theWarcFilesHoldWhatTheSiteServedUnderEachUrl() throws Exception {
    Map<String, byte[]> payloads = new java.util.HashMap<>();
    List<Path> files;
    try (var list = Files.list(crawlDir.resolve("warc"))) {
      files = list.sorted().toList();
    }
    assertThat(files).isNotEmpty().allMatch(p -> p.getFileName().toString().endsWith(".warc.gz"));
    for (Path file : files) {
      try (org.netpreserve.jwarc.WarcReader reader = new org.netpreserve.jwarc.WarcReader(file)) {
        for (org.netpreserve.jwarc.WarcRecord record : reader) {
          if (record instanceof org.netpreserve.jwarc.WarcResponse response) {
            String target = response.target();
            byte[] payload = response.http().body().stream().readAllBytes();
            assertThat(payloads.put(target, payload)).as("a second response for %s", target).isNull();
            assertThat(response.payloadDigest()).as("digest of %s", target)
                .contains(new org.netpreserve.jwarc.WarcDigest("sha1", sha1(payload)));
          }
        }
      }
    }
    assertThat(payloads.keySet()).containsExactlyInAnyOrderElementsOf(fetched.keySet());
    okhttp3.OkHttpClient client = new okhttp3.OkHttpClient.Builder().dns(site.dns()).followRedirects(false).build();
    for (Map.Entry<String, byte[]> e : payloads.entrySet()) {
      try (okhttp3.Response served = client.newCall(new okhttp3.Request.Builder().url(e.getKey()).build()).execute()) {
        assertThat(e.getValue()).as("payload of %s", e.getKey()).isEqualTo(served.body().bytes());
      }
    }
    client.dispatcher().executorService().shutdown();
    client.connectionPool().evictAll();
  }

  private static byte[] sha1(byte[] bytes) throws Exception {
    return java.security.MessageDigest.getInstance("SHA-1").digest(bytes);
  }

  /** An interrupt of the thread in run() stops the crawl as stop() does: workers end before the stores close. */
  @Test
  void anInterruptedRunStopsItsWorkersFirstAndReturnsStopped(@TempDir Path dir) throws Exception {
    RequestLog log = site.requests();
    StopReason[] returned = new StopReason[1];
    boolean[] stillInterrupted = new boolean[1];
    Crawl crawl = open(dir.resolve("crawl"), "unlimited", Crawl.Start.NEW);
    // run() and close() on one thread, as try-with-resources around run() does.
    Thread runner = Thread.ofPlatform().start(() -> {
      try (crawl) {
        returned[0] = crawl.run();
        stillInterrupted[0] = Thread.currentThread().isInterrupted();
      } catch (Exception e) {
        throw new AssertionError("run() or close() threw instead of stopping", e);
      }
    });
    while (crawl.stats().pages() < 5) {
      Thread.sleep(10);
    }
    runner.interrupt();
    runner.join(30_000);
    assertThat(runner.isAlive()).isFalse();
    assertThat(returned[0]).isEqualTo(StopReason.STOPPED);
    assertThat(stillInterrupted[0]).as("the interrupt is kept for the caller").isTrue();
    try (java.util.stream.Stream<Path> warc = Files.list(dir.resolve("crawl").resolve("warc"))) {
      assertThat(warc.map(p -> p.getFileName().toString())).as("WARC files finished by close()")
          .isNotEmpty().noneMatch(name -> name.endsWith(".open"));
    }
    int after = log.size();
    Thread.sleep(300);
    assertThat(log.size()).as("no worker fetches after run() returned").isEqualTo(after);
  }

  /** With 4 partitions the frontier has 4 lock groups, each with a database of its own. */
  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void aStoppedCrawlResumesWithoutFetchingAnythingTwice(int partitions, @TempDir Path dir) throws Exception {
    RequestLog log = site.requests();
    int before = log.all().size();
    Path crawl2 = dir.resolve("crawl");
    try (Crawl first = open(crawl2, "30", partitions, Crawl.Start.NEW)) {
      assertThat(first.run()).isEqualTo(StopReason.MAX_PAGES);
    }
    try (Crawl second = open(crawl2, "unlimited", partitions, Crawl.Start.RESUME)) {
      assertThat(second.run()).isEqualTo(StopReason.FINISHED);
    }
    Map<String, Long> counts = new java.util.HashMap<>();
    // robots.txt included: the resumed process reads the answers of the first from the crawl's robots/ store
    log.all().subList(before, log.all().size())
        .forEach(r -> counts.merge(r.host() + r.target(), 1L, Long::sum));
    assertThat(counts).hasSizeGreaterThan(30);
    assertThat(counts).allSatisfy((url, times) -> assertThat(times).as(url).isEqualTo(1));
    assertThat(log.all().subList(before, log.all().size()).stream()
        .map(r -> "http://" + r.host() + ":" + site.port() + r.target()).distinct())
        .as("the two runs together fetch the whole site").containsExactlyInAnyOrderElementsOf(
            site.expectedFetches(IN_SCOPE));
  }
}
