package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cluster.broker.SharedBroker;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.demo.DemoHost;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import dev.crawler.demo.RequestLog;
import dev.crawler.frontier.Partitions;
import dev.crawler.record.CrawlLogEntry;
import dev.crawler.record.CrawlLogReader;
import dev.crawler.url.CrawlUrl;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two nodes crawl; a third joins once they have fetched a share of the site. It takes
 * partitions from them, each handed over once its fetches under way ended and its done records
 * were flushed, and replays them. Read from the site's request log and the new node's crawl
 * log: every page is requested, none twice (the bound of a clean hand-over is 0), no host has
 * two requests at once, not even during the moves, and the new node fetched only hosts of the
 * partitions it owns.
 */
@ExtendWith(SharedBroker.class)
class NodeJoinTest {
  private static final int PARTITIONS = 8;

  @Test
  void aNodeThatJoinsTakesPartitionsAndFetchesOnlyTheirHosts(SharedBroker.Address broker, @TempDir Path dir)
      throws Exception {
    List<DemoHost> hosts = new ArrayList<>(DemoSiteSpec.demo().hosts());
    for (int i = 1; i <= 9; i++) {
      hosts.add(DemoHost.plain("site-" + i + ".example.com", 60));
    }
    try (DemoSite site = TestSites.startOnEveryPartition(new DemoSiteSpec(hosts), PARTITIONS)) {
      for (DemoHost h : hosts) {
        site.answerAfter(h.name(), Duration.ofMillis(60));
      }
      String crawl = "join-" + System.nanoTime();
      ClusterTopics topics = new ClusterTopics(crawl, PARTITIONS);
      List<Integer> ofNew;
      Path newcomer = dir.resolve("n3");
      try (LocalNodes nodes = new LocalNodes(PARTITIONS)) {
        List<CrawlConfig> configs = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
          configs.add(DemoCluster.nodeConfig(dir.resolve("n" + i), broker.bootstrapServers(), crawl, PARTITIONS,
              "n" + i));
        }
        CrawlEnvironment env = CrawlEnvironment.standard().withDns(site.dns());
        nodes.start(configs.get(0), env);
        nodes.start(configs.get(1), env);
        nodes.awaitSettled(Duration.ofSeconds(60));
        ClusterSeeds.add(configs.get(0), site.seeds(), "the test site");
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (site.requests().size() < 80 && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        int before = site.requests().size();
        nodes.start(configs.get(2), env);
        ofNew = ClusterWaits.awaitOwners(topics, broker.bootstrapServers(), 3, Duration.ofSeconds(60)).get("n3");
        assertThat(nodes.awaitIdle(Duration.ofSeconds(180))).as("the crawl ends").isTrue();
        assertThat(site.requests().size() - before).as("requests after the join").isGreaterThan(50);
      }
      RequestLog log = site.requests();
      Set<String> expected = site.expectedFetches(h -> h.endsWith(".example.com"));
      CrawledOnce crawled = CrawledOnce.of(log, expected);
      Set<String> missed = crawled.missed();
      Set<String> twice = crawled.twice().keySet();
      assertThat(missed).as("pages never requested").isEmpty();
      assertThat(twice).as("pages requested twice").isEmpty();
      for (DemoHost h : hosts) {
        assertThat(log.maxConcurrent(h.name())).as("requests at once to " + h.name()).isLessThanOrEqualTo(1);
      }
      assertThat(log.minGap("slow.example.com")).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
      List<CrawlLogEntry> byNew = CrawlLogReader.readAll(newcomer.resolve("crawl.log"));
      assertThat(byNew).as("lines of the new node's crawl log").isNotEmpty();
      assertThat(byNew).as("the new node fetched only hosts of its partitions " + ofNew)
          .allMatch(e -> ofNew.contains(Partitions.of(CrawlUrl.of(e.url()).hostKey(), PARTITIONS)));
      System.out.printf("join test: the new node owns %s and made %d requests%n", ofNew, byNew.size());
    }
  }
}
