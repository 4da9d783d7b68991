package dev.crawler.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.config.CrawlConfig;
import dev.crawler.demo.DemoHost;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import dev.crawler.demo.RequestLog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code politeness.queue-by: domain}: two hosts of one domain share one queue, so one delay and
 * one connection between them, as the site's own request log shows; the host-by-host crawl of the
 * same site is the control that shows the log would tell.
 */
class QueueByDomainTest {
  static final Duration DELAY = Duration.ofMillis(100);
  static final Predicate<String> EXAMPLE_COM = host -> host.endsWith(".example.com");

  @TempDir Path dir;
  DemoSite site;

  @BeforeEach
  void startTheSite() throws Exception {
    site = DemoSite.start(new DemoSiteSpec(List.of(
        new DemoHost("www.example.com", 12, null, List.of(), false),
        new DemoHost("docs.example.com", 12, null, List.of(), false))));
  }

  @AfterEach
  void stopTheSite() {
    site.close();
  }

  private StopReason crawl(String queueBy, String maxPagesPerHost) throws Exception {
    return crawl(site, dir.resolve("crawl-" + queueBy), queueBy, maxPagesPerHost);
  }

  /** A new crawl of the whole site, {@link #DELAY} between fetches of one queue; QueueByIpTest's too. */
  static StopReason crawl(DemoSite site, Path crawlDir, String queueBy, String maxPagesPerHost) throws Exception {
    CrawlConfig config = CrawlEndToEndTest.config(crawlDir, "unlimited", maxPagesPerHost, 1,
        Map.of("default-delay", DELAY.toMillis() + "ms", "queue-by", queueBy), "");
    try (Crawl crawl = Crawl.open(config, Crawl.Start.NEW,
        CrawlEnvironment.standard().withDns(site.dns()).withSeeds(site.seeds()))) {
      return crawl.run();
    }
  }

  @Test
  void theHostsOfADomainShareOneDelayAndOneConnection() throws Exception {
    assertThat(crawl("domain", "unlimited")).isEqualTo(StopReason.FINISHED);
    RequestLog log = site.requests();
    assertThat(log.forHost("www.example.com")).hasSizeGreaterThan(10);
    assertThat(log.forHost("docs.example.com")).hasSizeGreaterThan(10);
    assertThat(log.maxConcurrent(EXAMPLE_COM)).isEqualTo(1);
    assertThat(log.minGap(EXAMPLE_COM, "example.com")).isGreaterThanOrEqualTo(DELAY.minusMillis(5));
    assertThat(site.requests().countsByUrl().keySet()).containsExactlyInAnyOrderElementsOf(
        site.expectedFetches(EXAMPLE_COM));
  }

  @Test
  void byHostTheSameHostsAreFetchedSideBySide() throws Exception {
    assertThat(crawl("host", "unlimited")).isEqualTo(StopReason.FINISHED);
    RequestLog log = site.requests();
    assertThat(log.minGap("www.example.com")).isGreaterThanOrEqualTo(DELAY.minusMillis(5));
    assertThat(log.minGap(EXAMPLE_COM, "example.com")).as("two queues, each with its own delay")
        .isLessThan(DELAY.dividedBy(2));
  }

  @Test
  void pageLimitsPerHostStillCountPerHost() throws Exception {
    assertThat(crawl("domain", "4")).isEqualTo(StopReason.FINISHED);
    Map<String, Long> pages = new HashMap<>();
    for (RequestLog.Request r : site.requests().all()) {
      if (!r.target().equals("/robots.txt")) {
        pages.merge(r.host(), 1L, Long::sum);
      }
    }
    assertThat(pages).containsOnly(Map.entry("www.example.com", 4L), Map.entry("docs.example.com", 4L));
  }
}
