package dev.crawler.crawl;

import static dev.crawler.crawl.CrawlEndToEndTest.IN_SCOPE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.config.CrawlConfig;
import dev.crawler.demo.DemoHost;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crawls whose hosts come round after their robots.txt left the memory cache: the answers
 * come back from the crawl's robots store, and a URL waits at most once for the robots.txt
 * fetched for it.
 */
class RobotsBeyondMemoryTest {
  @TempDir Path dir;

  /** The end-to-end tests' configuration, with {@code robots} as its robots section. */
  private static CrawlConfig config(Path dir, String robots, String maxPages) throws Exception {
    return CrawlEndToEndTest.config(dir, maxPages, "unlimited", 1, "robots:\n  " + robots + "\n");
  }

  /**
   * One host's robots.txt in memory, four hosts served in turn: each robots.txt is fetched once,
   * in this run and in the resumed one (before the store, every turn fetched it again and sent
   * the URL back to wait for it, and the crawl never ended).
   */
  @Test
  @Timeout(120)
  void robotsTxtIsFetchedOncePerHostWhenMemoryHoldsOneHostAndAcrossAResume() throws Exception {
    try (DemoSite site = DemoSite.start(CrawlEndToEndTest.smallSite())) {
      Path crawlDir = dir.resolve("crawl");
      CrawlEnvironment env = CrawlEnvironment.standard().withDns(site.dns()).withSeeds(site.seeds());
      try (Crawl first = Crawl.open(config(crawlDir, "cache-hosts: 1", "40"), Crawl.Start.NEW, env)) {
        assertThat(first.run()).isEqualTo(StopReason.MAX_PAGES);
      }
      try (Crawl second = Crawl.open(config(crawlDir, "cache-hosts: 1", "unlimited"), Crawl.Start.RESUME, env)) {
        assertThat(second.run()).isEqualTo(StopReason.FINISHED);
      }
      Map<String, Long> fetched = site.requests().countsByUrl();
      assertThat(fetched.keySet()).containsExactlyInAnyOrderElementsOf(site.expectedFetches(IN_SCOPE));
      assertThat(fetched).allSatisfy((url, times) -> assertThat(times).as(url).isEqualTo(1));
    }
  }

  /**
   * robots.txt trusted for 1 s on a host that asks for 2 s between requests: by the time a URL
   * deferred for the robots.txt fetched for it comes back, that robots.txt has expired and is
   * fetched again. The URL does not wait a second time (it used to, every time, for ever).
   */
  @Test
  @Timeout(60)
  void aUrlWaitsOnlyOnceForARobotsTxtThatExpiresWithinTheHostsDelay() throws Exception {
    DemoSiteSpec spec = new DemoSiteSpec(List.of(
        new DemoHost("slow.example.com", 2, Duration.ofSeconds(2), List.of(), false)));
    try (DemoSite site = DemoSite.start(spec)) {
      CrawlEnvironment env = CrawlEnvironment.standard().withDns(site.dns()).withSeeds(site.seeds());
      try (Crawl crawl = Crawl.open(config(dir.resolve("crawl"), "cache-expiry: 1s", "unlimited"),
          Crawl.Start.NEW, env)) {
        assertThat(crawl.run()).isEqualTo(StopReason.FINISHED);
      }
      Map<String, Long> fetched = site.requests().countsByUrl();
      assertThat(fetched.keySet()).containsAll(site.expectedFetches(IN_SCOPE));
      assertThat(fetched).allSatisfy((url, times) -> {
        if (!url.endsWith("/robots.txt")) {
          assertThat(times).as(url).isEqualTo(1);
        }
      });
    }
  }

  /**
   * The first URL of a host is disallowed: no request of its own, but its robots.txt was one,
   * so the next page still waits the Crawl-delay (a denied URL ended as SKIPPED let it go at once).
   */
  @Test
  @Timeout(60)
  void aUrlDeniedRightAfterItsRobotsTxtWasFetchedStillLetsTheHostWaitItsDelay() throws Exception {
    DemoSiteSpec spec = new DemoSiteSpec(List.of(
        new DemoHost("slow.example.com", 2, Duration.ofSeconds(1), List.of("/private/"), false)));
    try (DemoSite site = DemoSite.start(spec)) {
      String origin = site.origin("slow.example.com");
      CrawlEnvironment env = CrawlEnvironment.standard().withDns(site.dns())
          .withSeeds(List.of(origin + "/private/first", origin + "/"));
      try (Crawl crawl = Crawl.open(config(dir.resolve("crawl"), "cache-hosts: 100", "unlimited"), Crawl.Start.NEW,
          env)) {
        assertThat(crawl.run()).isEqualTo(StopReason.FINISHED);
      }
      assertThat(site.requests().forHost("slow.example.com")).extracting(r -> r.target())
          .startsWith("/robots.txt", "/").doesNotContain("/private/first");
      assertThat(site.requests().minGap("slow.example.com")).isGreaterThanOrEqualTo(Duration.ofMillis(995));
    }
  }
}
