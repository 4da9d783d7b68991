package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cluster.broker.SharedBroker;
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
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three nodes of one crawl in this JVM, on a real broker, crawl the demo site and five more
 * hosts. Read from the site's own request log: every page a correct crawl requests is requested
 * exactly once, no host ever has two requests in flight (each has one connection, so two at
 * once could only come from two nodes), and slow.example.com's Crawl-delay of 1 s is never cut
 * short. The control: two crawls that are not one cluster (two crawl names, each a group of one)
 * fetch the same hosts, and the same checks see both the repeats and the broken delay.
 */
@ExtendWith(SharedBroker.class)
class ThreeNodesCrawlTest {
  private static final int PARTITIONS = 8;
  private static final String DOMAIN = "example.com";

  static DemoSiteSpec site() {
    List<DemoHost> hosts = new ArrayList<>(DemoSiteSpec.demo().hosts());
    for (int i = 1; i <= 5; i++) {
      hosts.add(DemoHost.plain("site-" + i + ".example.com", 15));
    }
    return new DemoSiteSpec(hosts);
  }

  @Test
  void threeNodesFetchEveryPageOnceAndNeverShareAHost(SharedBroker.Address broker, @TempDir Path dir)
      throws Exception {
    try (DemoSite site = DemoSite.start(site())) {
      String crawl = "three-" + System.nanoTime();
      Map<String, Long> requestedByNode;
      try (LocalNodes nodes = new LocalNodes(PARTITIONS)) {
        List<CrawlConfig> configs = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
          CrawlConfig config = DemoCluster.nodeConfig(dir.resolve("n" + i), broker.bootstrapServers(), crawl, PARTITIONS,
              "n" + i);
          configs.add(config);
          nodes.start(config, CrawlEnvironment.standard().withDns(site.dns()));
        }
        nodes.awaitSettled(Duration.ofSeconds(60));
        ClusterSeeds.add(configs.get(0), site.seeds(), "the test site");
        assertThat(nodes.awaitIdle(Duration.ofSeconds(120))).as("the crawl ends within 120 s").isTrue();
        requestedByNode = nodes.nodes().stream().collect(Collectors.toMap(ClusterNode::nodeId,
            n -> n.crawl().stats().requested()));
      }
      RequestLog log = site.requests();
      Set<String> expected = site.expectedFetches(h -> h.equals(DOMAIN) || h.endsWith("." + DOMAIN));
      Map<String, Long> fetched = log.countsByUrl();
      Set<String> missed = new TreeSet<>(expected);
      missed.removeAll(fetched.keySet());
      Set<String> twice = fetched.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
          .collect(Collectors.toCollection(TreeSet::new));
      Set<String> unexpected = new TreeSet<>(fetched.keySet());
      unexpected.removeAll(expected);
      assertThat(missed).as("expected URLs never requested").isEmpty();
      assertThat(twice).as("URLs requested more than once").isEmpty();
      assertThat(unexpected).as("URLs requested that a correct crawl does not").isEmpty();
      for (DemoHost host : site.spec().hosts()) {
        if (!log.forHost(host.name()).isEmpty()) {
          assertThat(log.maxConcurrent(host.name())).as("requests in flight at once to " + host.name()).isEqualTo(1);
        }
      }
      assertThat(log.minGap("slow.example.com")).as("the rest between two requests to slow.example.com (Crawl-delay 1 s)")
          .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
      assertThat(requestedByNode.values().stream().filter(n -> n > 0).count())
          .as("nodes that fetched pages: " + requestedByNode).isGreaterThanOrEqualTo(2);
    }
  }

  @Test
  void twoCrawlsThatAreNotOneClusterBreakTheSameChecks(SharedBroker.Address broker, @TempDir Path dir)
      throws Exception {
    DemoSiteSpec spec = new DemoSiteSpec(List.of(DemoSiteSpec.demo().hosts().get(2)));   // slow.example.com
    try (DemoSite site = DemoSite.start(spec)) {
      long stamp = System.nanoTime();
      try (LocalNodes a = new LocalNodes(2); LocalNodes b = new LocalNodes(2)) {
        CrawlConfig ca = DemoCluster.nodeConfig(dir.resolve("a"), broker.bootstrapServers(), "apart-a-" + stamp, 2, "a");
        CrawlConfig cb = DemoCluster.nodeConfig(dir.resolve("b"), broker.bootstrapServers(), "apart-b-" + stamp, 2, "b");
        a.start(ca, CrawlEnvironment.standard().withDns(site.dns()));
        b.start(cb, CrawlEnvironment.standard().withDns(site.dns()));
        a.awaitSettled(Duration.ofSeconds(60));
        b.awaitSettled(Duration.ofSeconds(60));
        ClusterSeeds.add(ca, site.seeds(), "the test site");
        ClusterSeeds.add(cb, site.seeds(), "the test site");
        assertThat(a.awaitIdle(Duration.ofSeconds(120)) && b.awaitIdle(Duration.ofSeconds(120))).isTrue();
      }
      RequestLog log = site.requests();
      assertThat(log.countsByUrl().values()).as("each URL fetched by both crawls").allMatch(n -> n == 2);
      assertThat(log.minGap("slow.example.com")).as("two crawls break slow.example.com's Crawl-delay")
          .isLessThan(Duration.ofSeconds(1));
    }
  }
}
