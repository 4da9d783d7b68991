package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.demo.DemoHost;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import dev.crawler.demo.RequestLog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The crawl the broker outage tests break: the demo site and six plain hosts, every answer 60 ms
 * late so the crawl outlasts the outage, crawled by two nodes of four partitions; and what must
 * hold of it afterwards, read from the site's request log.
 */
final class BrokerOutageCrawl {
  static final int PARTITIONS = 4;
  static final int NODES = 2;
  static final int WORKERS = 8;   // DemoCluster's nodes
  /** Pages requested twice at most: nodes that lose their partitions with their leases out, one a worker. */
  static final int BOUND = NODES * 2 * WORKERS;

  private BrokerOutageCrawl() {}

  /** The demo site's hosts and six plain ones of {@code pagesEach} pages. */
  static List<DemoHost> hosts(int pagesEach) {
    List<DemoHost> hosts = new ArrayList<>(DemoSiteSpec.demo().hosts());
    for (int i = 1; i <= 6; i++) {
      hosts.add(DemoHost.plain("site-" + i + ".example.com", pagesEach));
    }
    return hosts;
  }

  /** The site of {@code hosts}, each answering 60 ms late. */
  static DemoSite site(List<DemoHost> hosts) throws Exception {
    DemoSite site = DemoSite.start(new DemoSiteSpec(hosts));
    for (DemoHost h : hosts) {
      site.answerAfter(h.name(), Duration.ofMillis(60));
    }
    return site;
  }

  /** The pages a correct crawl of {@code site} requests. */
  static Set<String> expected(DemoSite site) {
    return site.expectedFetches(h -> h.endsWith(".example.com"));
  }

  /** Starts the nodes on the broker at {@code bootstrapServers}, seeds them, and waits for a third of the pages. */
  static void startAndCrawlAThird(LocalNodes nodes, Path dir, String bootstrapServers, String crawl, DemoSite site)
      throws Exception {
    List<CrawlConfig> configs = new ArrayList<>();
    for (int i = 1; i <= NODES; i++) {
      CrawlConfig config = DemoCluster.nodeConfig(dir.resolve("n" + i), bootstrapServers, crawl, PARTITIONS, "n" + i);
      configs.add(config);
      nodes.start(config, CrawlEnvironment.standard().withDns(site.dns()));
    }
    nodes.awaitSettled(Duration.ofSeconds(90));
    ClusterSeeds.add(configs.get(0), site.seeds(), "the test site");
    int third = expected(site).size() / 3;
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (site.requests().size() < third && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(site.requests().size()).as("requests before the outage").isGreaterThanOrEqualTo(third);
  }

  /** Every page requested, twice at most {@link #BOUND}, no host with two requests at once, the Crawl-delay kept. */
  static void assertCrawledPolitely(RequestLog log, Set<String> expected, List<DemoHost> hosts) {
    CrawledOnce crawled = CrawledOnce.of(log, expected);
    assertThat(crawled.missed()).as("pages never requested").isEmpty();
    assertThat(crawled.twice().size()).as("pages requested twice: " + crawled.twice().keySet())
        .isLessThanOrEqualTo(BOUND);
    for (DemoHost h : hosts) {
      assertThat(log.maxConcurrent(h.name())).as("requests at once to " + h.name()).isLessThanOrEqualTo(1);
    }
    assertThat(log.minGap("slow.example.com")).as(CrawledOnce.shortestRest(log, "slow.example.com"))
        .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
  }
}
