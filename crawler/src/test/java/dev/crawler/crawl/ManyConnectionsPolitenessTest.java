package dev.crawler.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.config.CrawlConfig;
import dev.crawler.demo.DemoHost;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import dev.crawler.demo.RequestLog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Politeness with ten connections a host, read from the site's own request log: a queue's
 * delay spaces the starts of its requests whatever its connections, a Crawl-delay host gets one
 * connection and its delay between all its requests (robots.txt included), and a host with no
 * delay does get several requests in flight, the control that shows the log would tell.
 */
class ManyConnectionsPolitenessTest {
  /** The server's clock and the crawler's differ by scheduling noise; a real breach is far larger. */
  static final Duration SLACK = Duration.ofMillis(5);

  @TempDir Path dir;

  private static StopReason crawl(DemoSite site, Path crawlDir, Map<String, String> politeness) throws Exception {
    CrawlConfig config = CrawlEndToEndTest.config(crawlDir, "unlimited", "unlimited", 1, politeness, "");
    try (Crawl crawl = Crawl.open(config, Crawl.Start.NEW,
        CrawlEnvironment.standard().withDns(site.dns()).withSeeds(site.seeds()))) {
      return crawl.run();
    }
  }

  @Test
  void aCrawlDelayHostGetsOneConnectionAndItsDelayWhileAHostWithNoDelayGetsSeveralAtOnce() throws Exception {
    try (DemoSite site = DemoSite.start(new DemoSiteSpec(List.of(
        new DemoHost("slow.example.com", 3, Duration.ofSeconds(1), List.of(), false),
        DemoHost.plain("fast.example.org", 40))))) {
      site.answerAfter("fast.example.org", Duration.ofMillis(200));
      assertThat(crawl(site, dir.resolve("crawl"), Map.of("default-delay", "0ms", "connections-per-host", "10")))
          .isEqualTo(StopReason.FINISHED);

      RequestLog log = site.requests();
      assertThat(log.forHost("slow.example.com")).as("robots.txt and pages").hasSizeGreaterThan(3);
      assertThat(log.maxConcurrent("slow.example.com")).isEqualTo(1);
      assertThat(log.minGap("slow.example.com")).as("from the end of one request to the next's start")
          .isGreaterThanOrEqualTo(Duration.ofSeconds(1).minus(SLACK));
      assertThat(log.maxConcurrent("fast.example.org")).as("the control: no delay, ten connections")
          .isGreaterThan(1);
      assertThat(log.minStartGap("fast.example.org"::equals, "fast.example.org")).isLessThan(Duration.ofMillis(100));
      assertThat(log.countsByUrl().keySet()).containsExactlyInAnyOrderElementsOf(site.expectedFetches(host -> true));
    }
  }

  @Test
  void twoStartsOnAHostWithADefaultDelayAreNeverCloserThanItThoughItsRequestsOverlap() throws Exception {
    try (DemoSite site = DemoSite.start(new DemoSiteSpec(List.of(DemoHost.plain("paced.example.com", 12))))) {
      site.answerAfter("paced.example.com", Duration.ofMillis(500));
      assertThat(crawl(site, dir.resolve("crawl"), Map.of("default-delay", "200ms", "connections-per-host", "10")))
          .isEqualTo(StopReason.FINISHED);

      RequestLog log = site.requests();
      assertThat(log.forHost("paced.example.com")).hasSizeGreaterThan(10);
      assertThat(log.minStartGap("paced.example.com"::equals, "paced.example.com"))
          .isGreaterThanOrEqualTo(Duration.ofMillis(200).minus(SLACK));
      assertThat(log.maxConcurrent("paced.example.com")).as("several connections in use, each start 200 ms on")
          .isGreaterThan(1);
    }
  }

  @Test
  void underQueueByDomainOneHostsCrawlDelayPacesTheWholeQueue() throws Exception {
    try (DemoSite site = DemoSite.start(new DemoSiteSpec(List.of(
        new DemoHost("www.example.com", 2, Duration.ofSeconds(1), List.of(), false),
        DemoHost.plain("docs.example.com", 2))))) {
      assertThat(crawl(site, dir.resolve("crawl"),
          Map.of("default-delay", "0ms", "connections-per-host", "10", "queue-by", "domain")))
          .isEqualTo(StopReason.FINISHED);

      // Until www's robots.txt is read the queue has no Crawl-delay: from then on, one request at
      // a time (robots.txt of the other host included), each a second after the one before ended.
      RequestLog log = site.requests();
      long robotsRead = log.forHost("www.example.com").get(0).endNanos();
      List<RequestLog.Request> after = log.all().stream()
          .filter(r -> r.host().endsWith(".example.com") && r.startNanos() >= robotsRead).toList();
      assertThat(after).hasSizeGreaterThan(3);
      long latestEnd = robotsRead;
      for (RequestLog.Request r : after) {
        assertThat(Duration.ofNanos(r.startNanos() - latestEnd)).as("gap before %s%s", r.host(), r.target())
            .isGreaterThanOrEqualTo(Duration.ofSeconds(1).minus(SLACK));
        latestEnd = Math.max(latestEnd, r.endNanos());
      }
    }
  }
}
