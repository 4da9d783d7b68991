package dev.crawler.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.Crawl;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.crawl.StopReason;
import dev.crawler.dedup.FilterFill;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import dev.crawler.record.CrawlOutcome;
import dev.crawler.stats.LinkVerdict;
import dev.crawler.stats.StatsFile;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.assertj.core.data.Offset;
import org.assertj.core.data.Percentage;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crawls the demo site and opens its status page in headless Chromium (Debian's {@code chromium};
 * {@code .ci/run} installs it, and the test is skipped, saying so, where it is missing). The page
 * writes what it drew into a hidden element; the test reads it from the DOM and holds it to
 * stats.json and to {@code /metrics} of the same report.
 */
class StatusPageBrowserTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Where the screenshot goes; the README shows a copy of it. */
  static final Path SCREENSHOT = Path.of("target", "status-page.png");

  @TempDir
  Path dir;

  @Test
  void thePageDrawsEveryChartAndShowsTheFiguresOfStatsJsonAndMetrics() throws Exception {
    Optional<HeadlessChromium> found = HeadlessChromium.find(Files.createDirectories(dir.resolve("chromium")));
    assumeThat(found).as("Chromium is not installed (apt-get install chromium; .ci/run does): "
        + "the status page is not tested in a browser here").isPresent();
    HeadlessChromium chromium = found.orElseThrow();
    Path crawlDir = dir.resolve("crawl");
    try (DemoSite site = DemoSite.start(DemoSiteSpec.demo());
        Crawl crawl = Crawl.open(config(crawlDir), Crawl.Start.NEW,
            CrawlEnvironment.standard().withDns(site.dns()).withSeeds(site.seeds()))) {
      CompletableFuture<StopReason> run = CompletableFuture.supplyAsync(() -> {
        try {
          return crawl.run();
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      URI page = URI.create(Files.readString(crawlDir.resolve(CrawlStatus.ADDRESS_FILE)).strip());
      waitForReports(crawlDir.resolve("stats.json"), 3, run);
      // Mid-crawl: the picture the README shows.
      chromium.screenshot(page.toString(), 5_000, SCREENSHOT, 1400, 2300);
      assertThat(Files.size(SCREENSHOT)).isGreaterThan(20_000);

      // Once the crawl has run out of URLs its counters stand still while the server still serves,
      // and the reports go on: the page, stats.json and /metrics are compared on one report.
      assertThat(run.get(3, java.util.concurrent.TimeUnit.MINUTES)).isEqualTo(StopReason.FINISHED);
      Sameness same = sameReport(chromium, page, crawlDir.resolve("stats.json"));

      JsonNode check = same.check;
      for (String chart : List.of("rate", "outcomes", "frontier", "filter")) {
        JsonNode drawn = check.path("charts").path(chart);
        assertThat(drawn.path("points").asInt()).as("data points of chart %s", chart).isGreaterThan(1);
        assertThat(drawn.path("pixels").asInt()).as("pixels of chart %s in its series' colours", chart)
            .isGreaterThan(50);
      }

      Map<String, Double> expected = figures(same.stats);
      Map<String, Double> shown = new LinkedHashMap<>();
      check.path("figures").fields().forEachRemaining(e -> shown.put(e.getKey(), e.getValue().asDouble()));
      assertThat(shown).containsAllEntriesOf(expected);

      ScrapedMetrics m = same.metrics;
      assertThat(m.value("crawler_pages_total")).isEqualTo(same.stats.crawl().pages());
      assertThat(m.value("crawler_body_bytes_total")).isEqualTo(same.stats.crawl().bytes());
      assertThat(m.value("crawler_robots_fetches_total")).isEqualTo(same.stats.crawl().robotsFetches());
      for (CrawlOutcome o : CrawlOutcome.values()) {
        assertThat(m.value("crawler_page_outcomes_total", "outcome", o.name().toLowerCase(Locale.ROOT)))
            .as("outcome %s", o).isEqualTo(same.stats.crawl().outcome(o));
      }
      for (LinkVerdict v : LinkVerdict.values()) {
        assertThat(m.value("crawler_links_total", "verdict", v.name().toLowerCase(Locale.ROOT)))
            .as("verdict %s", v).isEqualTo(same.stats.crawl().links(v));
      }
      assertThat(m.value("crawler_responses_total", "status_class", "2xx"))
          .isEqualTo(same.stats.crawl().statuses().successful());
      assertThat(m.value("crawler_responses_total", "status_class", "4xx"))
          .isEqualTo(same.stats.crawl().statuses().clientError());
      assertThat(m.value("crawler_frontier_urls")).isEqualTo(same.stats.frontier().queuedUrls());
      assertThat(m.value("crawler_frontier_hosts")).isEqualTo(same.stats.frontier().hosts());
      assertThat(m.value("crawler_frontier_ready_hosts")).isEqualTo(same.stats.frontier().readyHosts());
      assertThat(m.value("crawler_frontier_leased_urls")).isEqualTo(same.stats.frontier().leasedUrls());
      assertThat(m.value("crawler_seen_checks_total")).isEqualTo(same.stats.seen().checks());
      assertThat(m.value("crawler_seen_new_total")).isEqualTo(same.stats.seen().newUrls());
      assertThat(m.value("crawler_seen_duplicates_total")).isEqualTo(same.stats.seen().seen());
      assertThat(m.value("crawler_seen_filter_fill_ratio")).isEqualTo(same.stats.seen().fillRatio());
      assertThat(m.value("crawler_seen_false_positive_rate_estimated_ratio"))
          .isEqualTo(same.stats.seen().estimatedRate());
      assertThat(m.value("crawler_fetch_duration_seconds")).as("fetches timed")
          .isGreaterThan(same.stats.crawl().statuses().successful() - 1);
      assertThat(m.names()).contains("jvm_memory_used_bytes", "crawler_frontier_rocksdb_block_cache_bytes",
          "crawler_seen_rocksdb_memory_bytes", "process_uptime_seconds");
      // Bounded labels: no metric is labelled with a host, whatever the crawl met.
      assertThat(m.labelValues().keySet()).noneMatch(label -> label.contains("host"));
      assertThat(m.labelValues().get("crawler_page_outcomes_total{outcome}")).hasSize(CrawlOutcome.values().length);

      // Each stacked filter's point lies on its own curve p = (1 - e^(-kn/m))^k.
      List<FilterFill> stack = same.stats.seen().stack();
      assertThat(check.path("filter")).hasSize(stack.size());
      for (JsonNode point : check.path("filter")) {
        FilterFill filter = stack.get(point.path("filter").asInt() - 1);
        double n = point.path("n").asDouble();
        assertThat(n).isCloseTo(filter.estimatedKeys(), Offset.offset(1e-6 * filter.estimatedKeys()));
        assertThat(n).isGreaterThan(same.stats.seen().newUrls() * 0.9);
        assertThat(point.path("p").asDouble()).isCloseTo(filter.curveRate(n), Percentage.withPercentage(1e-6));
      }
    }
  }

  /** The figures the page must show for a report, by the ids it gives them. */
  static Map<String, Double> figures(StatsFile r) {
    Map<String, Double> f = new LinkedHashMap<>();
    var c = r.crawl();
    f.put("pages", (double) c.pages());
    f.put("pages-per-second", r.pagesPerSecond());
    f.put("average-pages-per-second", r.averagePagesPerSecond());
    f.put("bytes", (double) c.bytes());
    f.put("status-2xx", (double) c.statuses().successful());
    f.put("status-3xx", (double) c.statuses().redirection());
    f.put("status-4xx", (double) c.statuses().clientError());
    f.put("status-5xx", (double) c.statuses().serverError());
    for (CrawlOutcome o : CrawlOutcome.values()) {
      if (c.outcome(o) > 0) {
        f.put("outcome-" + o.name().toLowerCase(Locale.ROOT), (double) c.outcome(o));
      }
    }
    for (LinkVerdict v : LinkVerdict.values()) {
      if (c.links(v) > 0) {
        f.put("links-" + v.name().toLowerCase(Locale.ROOT), (double) c.links(v));
      }
    }
    f.put("robots-fetches", (double) c.robotsFetches());
    f.put("frontier-urls", (double) r.frontier().queuedUrls());
    f.put("frontier-hosts", (double) r.frontier().hosts());
    f.put("frontier-ready-hosts", (double) r.frontier().readyHosts());
    f.put("frontier-leased-urls", (double) r.frontier().leasedUrls());
    f.put("seen-checks", (double) r.seen().checks());
    f.put("seen-new", (double) r.seen().newUrls());
    f.put("seen-duplicates", (double) r.seen().seen());
    f.put("seen-filters", (double) r.seen().filters());
    f.put("seen-fill", r.seen().fillRatio());
    f.put("seen-estimated-rate", r.seen().estimatedRate());
    f.put("seen-verified-false-positives", (double) r.seen().caughtFalsePositives());
    return f;
  }

  private record Sameness(JsonNode check, StatsFile stats, ScrapedMetrics metrics) {}

  /** The page's figures, stats.json and /metrics, read until all three stand for one report. */
  private static Sameness sameReport(HeadlessChromium chromium, URI page, Path statsJson) throws Exception {
    String seen = "";
    for (int attempt = 0; attempt < 10; attempt++) {
      String dom = chromium.dumpDom(page.toString(), 3_000);
      String text = Jsoup.parse(dom).getElementById("self-check").text();
      assertThat(text).as("the page's own account of what it drew").isNotEmpty();
      JsonNode check = JSON.readTree(text);
      StatsFile stats = StatsFile.read(statsJson);
      ScrapedMetrics metrics = ScrapedMetrics.scrape(page);
      double metricsTime = metrics.value("crawler_stats_report_time_seconds");
      double statsTime = java.time.Instant.parse(stats.time()).toEpochMilli() / 1000.0;
      if (check.path("reportTime").asText().equals(stats.time()) && metricsTime == statsTime) {
        return new Sameness(check, stats, metrics);
      }
      seen += " page " + check.path("reportTime").asText() + " / stats.json " + stats.time() + ";";
    }
    throw new AssertionError("the page, stats.json and /metrics never showed one report:" + seen);
  }

  private static void waitForReports(Path statsJson, int pagesAtLeast, CompletableFuture<?> run)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (System.nanoTime() < deadline && !run.isDone()) {
      if (Files.exists(statsJson)) {
        StatsFile stats = StatsFile.read(statsJson);
        if (stats.runSeconds() >= 7 && stats.crawl().pages() >= pagesAtLeast) {
          return;
        }
      }
      Thread.sleep(200);
    }
  }

  private static CrawlConfig config(Path crawlDir) {
    return ConfigLoader.parse("""
        status:
          listen: 127.0.0.1:0   # any free port: test crawls run side by side
        crawl:
          data-dir: '%s'
          user-agent:
            name: status-test
        politeness:
          default-delay: 50ms
          max-crawl-delay: 2s
        fetch:
          workers: 8
        scope:
          allow-private-addresses: true
        seen:
          expected-urls: 1_000
          false-positive-rate: 1%%
        stats:
          interval: 2s
        """.formatted(crawlDir), "status test", crawlDir.getParent());
  }
}
