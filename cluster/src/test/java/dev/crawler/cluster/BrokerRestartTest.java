package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cluster.broker.BrokerLayout;
import dev.crawler.cluster.broker.ChildBroker;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker, in a JVM of its own, is killed with SIGKILL mid-crawl and started again on its log
 * a few seconds later. The two nodes wait (their sends and commits are retried) and go on; the
 * crawl ends with every page requested. Pages requested twice are at most {@link #BOUND}: a node
 * that the restarted broker no longer knows loses its partitions without a hand-over, and the
 * leases it had out then, one a worker, come back.
 */
class BrokerRestartTest {
  private static final int PARTITIONS = 4;
  private static final int NODES = 2;
  private static final int WORKERS = 8;
  private static final int BOUND = NODES * 2 * WORKERS;

  @Test
  void nodesWaitForARestartedBrokerAndLoseNothing(@TempDir Path dir) throws Exception {
    List<DemoHost> hosts = new ArrayList<>(DemoSiteSpec.demo().hosts());
    for (int i = 1; i <= 6; i++) {
      hosts.add(DemoHost.plain("site-" + i + ".example.com", 30));
    }
    BrokerLayout layout = BrokerLayout.fresh(dir.resolve("broker"));
    try (DemoSite site = DemoSite.start(new DemoSiteSpec(hosts))) {
      for (DemoHost h : hosts) {
        site.answerAfter(h.name(), Duration.ofMillis(60));
      }
      Set<String> expected = site.expectedFetches(h -> h.endsWith(".example.com"));
      ChildBroker broker = ChildBroker.start(layout);
      ChildBroker restarted = null;
      int atKill;
      try (LocalNodes nodes = new LocalNodes(PARTITIONS)) {
        List<CrawlConfig> configs = new ArrayList<>();
        for (int i = 1; i <= NODES; i++) {
          CrawlConfig config = DemoCluster.nodeConfig(dir.resolve("n" + i), layout.bootstrapServers(), "restarted",
              PARTITIONS, "n" + i);
          configs.add(config);
          nodes.start(config, CrawlEnvironment.standard().withDns(site.dns()));
        }
        nodes.awaitSettled(Duration.ofSeconds(90));
        ClusterSeeds.add(configs.get(0), site.seeds(), "the test site");
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (site.requests().size() < expected.size() / 3 && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        broker.kill();
        atKill = site.requests().size();
        Thread.sleep(3_000);
        restarted = ChildBroker.start(layout);
        assertThat(nodes.awaitIdle(Duration.ofSeconds(180))).as("the crawl ends after the broker's restart").isTrue();
      } finally {
        if (restarted != null) {
          restarted.close();
        }
        broker.close();
      }
      RequestLog log = site.requests();
      CrawledOnce crawled = CrawledOnce.of(log, expected);
      Set<String> missed = crawled.missed();
      Set<String> twice = crawled.twice().keySet();
      assertThat(atKill).as("requests before the broker's kill").isLessThan(expected.size());
      assertThat(missed).as("pages never requested").isEmpty();
      assertThat(twice.size()).as("pages requested twice: " + twice).isLessThanOrEqualTo(BOUND);
      for (DemoHost h : hosts) {
        assertThat(log.maxConcurrent(h.name())).as("requests at once to " + h.name()).isLessThanOrEqualTo(1);
      }
      assertThat(log.minGap("slow.example.com")).as(CrawledOnce.shortestRest(log, "slow.example.com"))
          .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
      System.out.printf("broker restart test: %d of %d requests before the kill, %d pages twice (bound %d)%n", atKill,
          log.size(), twice.size(), BOUND);
    }
  }
}
