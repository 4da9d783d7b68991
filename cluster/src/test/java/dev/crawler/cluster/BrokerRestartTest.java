package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cluster.broker.BrokerLayout;
import dev.crawler.cluster.broker.ChildBroker;
import dev.crawler.demo.DemoHost;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.RequestLog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker, in a JVM of its own, is killed with SIGKILL mid-crawl and started again on its log
 * a few seconds later. The two nodes wait (their sends and commits are retried) and go on; the
 * crawl ends with every page requested. Pages requested twice are at most
 * {@link BrokerOutageCrawl#BOUND}: a node that the restarted broker no longer knows loses its
 * partitions without a hand-over, and the leases it had out then, one a worker, come back.
 */
class BrokerRestartTest {
  @Test
  void nodesWaitForARestartedBrokerAndLoseNothing(@TempDir Path dir) throws Exception {
    List<DemoHost> hosts = BrokerOutageCrawl.hosts(30);
    BrokerLayout layout = BrokerLayout.fresh(dir.resolve("broker"));
    try (DemoSite site = BrokerOutageCrawl.site(hosts)) {
      Set<String> expected = BrokerOutageCrawl.expected(site);
      ChildBroker broker = ChildBroker.start(layout);
      ChildBroker restarted = null;
      int atKill;
      try (LocalNodes nodes = new LocalNodes(BrokerOutageCrawl.PARTITIONS)) {
        BrokerOutageCrawl.startAndCrawlAThird(nodes, dir, layout.bootstrapServers(), "restarted", site);
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
      assertThat(atKill).as("requests before the broker's kill").isLessThan(expected.size());
      BrokerOutageCrawl.assertCrawledPolitely(log, expected, hosts);
      System.out.printf("broker restart test: %d of %d requests before the kill, %d pages twice (bound %d)%n", atKill,
          log.size(), CrawledOnce.of(log, expected).twice().size(), BrokerOutageCrawl.BOUND);
    }
  }
}
