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
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code politeness.queue-by: ip}: two hosts of two domains that the site's resolver puts on one
 * address (127.0.0.1) share one queue, so one delay and one connection, as the site's request log
 * shows; queue-by domain on the same site is the control that shows the log would tell.
 */
class QueueByIpTest {
  static final Duration DELAY = QueueByDomainTest.DELAY;
  static final Predicate<String> BOTH_HOSTS = host -> host.equals("www.example.com") || host.equals("www.example.org");

  @TempDir Path dir;
  DemoSite site;

  @BeforeEach
  void startTheSite() throws Exception {
    site = DemoSite.start(new DemoSiteSpec(List.of(
        new DemoHost("www.example.com", 12, null, List.of(), false),
        new DemoHost("www.example.org", 12, null, List.of(), false))));
  }

  @AfterEach
  void stopTheSite() {
    site.close();
  }

  private StopReason crawl(String queueBy) throws Exception {
    return QueueByDomainTest.crawl(site, dir.resolve("crawl-" + queueBy), queueBy, "unlimited");
  }

  @Test
  void theHostsOfOneAddressShareOneDelayAndOneConnection() throws Exception {
    assertThat(crawl("ip")).isEqualTo(StopReason.FINISHED);
    RequestLog log = site.requests();
    assertThat(log.forHost("www.example.com")).hasSizeGreaterThan(10);
    assertThat(log.forHost("www.example.org")).hasSizeGreaterThan(10);
    assertThat(log.maxConcurrent(BOTH_HOSTS)).isEqualTo(1);
    assertThat(log.minGap(BOTH_HOSTS, "127.0.0.1")).isGreaterThanOrEqualTo(DELAY.minusMillis(5));
    assertThat(site.requests().countsByUrl().keySet()).containsExactlyInAnyOrderElementsOf(
        site.expectedFetches(BOTH_HOSTS));
  }

  @Test
  void aResumedCrawlReopensItsHostsKeysAndFetchesEachPageOnce() throws Exception {
    Path crawlDir = dir.resolve("crawl-resumed");
    Map<String, String> politeness = Map.of("default-delay", "0ms", "queue-by", "ip");
    CrawlConfig first = CrawlEndToEndTest.config(crawlDir, "5", "unlimited", 1, politeness, "");
    try (Crawl crawl = Crawl.open(first, Crawl.Start.NEW,
        CrawlEnvironment.standard().withDns(site.dns()).withSeeds(site.seeds()))) {
      assertThat(crawl.run()).isEqualTo(StopReason.MAX_PAGES);
    }
    assertThat(crawlDir.resolve("queue-keys")).isDirectory();

    CrawlConfig rest = CrawlEndToEndTest.config(crawlDir, "unlimited", "unlimited", 1, politeness, "");
    try (Crawl crawl = Crawl.open(rest, Crawl.Start.RESUME, CrawlEnvironment.standard().withDns(site.dns()))) {
      assertThat(crawl.run()).isEqualTo(StopReason.FINISHED);
    }
    assertThat(site.requests().countsByUrl()).containsOnlyKeys(site.expectedFetches(BOTH_HOSTS))
        .allSatisfy((url, times) -> assertThat(times).as(url).isEqualTo(1L));
  }

  @Test
  void byDomainTheSameHostsAreFetchedSideBySide() throws Exception {
    assertThat(crawl("domain")).isEqualTo(StopReason.FINISHED);
    assertThat(site.requests().minGap(BOTH_HOSTS, "127.0.0.1")).as("two queues, each with its own delay")
        .isLessThan(DELAY.dividedBy(2));
  }
}
