package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cluster.broker.SharedBroker;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.demo.DemoHost;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import dev.crawler.demo.RequestLog;
import dev.crawler.record.CrawlLogEntry;
import dev.crawler.record.CrawlLogReader;
import dev.crawler.url.CrawlUrl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every host of the site asks for one request a second (Crawl-delay: 1), and node b joins and
 * leaves three times while they are crawled, so partitions move between a and b in the middle of
 * their hosts' crawls. A new owner knows nothing of its hosts' last requests but what the old one
 * handed over: from the site's own request log, no two requests of a host come closer than its
 * Crawl-delay, not even across a move. The test checks that hosts did change nodes mid-crawl
 * (the crawl logs say which node fetched what), so the gap check did run where it could fail.
 */
@ExtendWith(SharedBroker.class)
class HandOverPolitenessTest {
  private static final int PARTITIONS = 4;
  private static final int HOSTS = 8;
  private static final int PAGES = 40;
  private static final Duration CRAWL_DELAY = Duration.ofSeconds(1);
  private static final int MOVES = 3;

  /** A node running its crawl on a thread of its own. */
  private record Running(ClusterNode node, Thread thread) implements AutoCloseable {
    static Running start(CrawlConfig config, CrawlEnvironment env) throws Exception {
      ClusterNode node = ClusterNode.open(config, env);
      return new Running(node, Thread.ofPlatform().name("node-" + node.nodeId()).start(() -> {
        try {
          node.run();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }));
    }

    @Override
    public void close() throws Exception {
      node.stop();
      thread.join();
      node.close();
    }
  }

  @Test
  void aHostsCrawlDelayHoldsAcrossEveryMoveOfItsPartition(SharedBroker.Address broker, @TempDir Path dir)
      throws Exception {
    List<DemoHost> hosts = new ArrayList<>();
    for (int i = 0; i < HOSTS; i++) {
      hosts.add(new DemoHost("delay-" + i + ".example.com", PAGES, CRAWL_DELAY, List.of(), false));
    }
    String crawl = "handover-" + System.nanoTime();
    ClusterTopics topics = new ClusterTopics(crawl, PARTITIONS);
    CrawlConfig ca = DemoCluster.nodeConfig(dir.resolve("a"), broker.bootstrapServers(), crawl, PARTITIONS, "a");
    CrawlConfig cb = DemoCluster.nodeConfig(dir.resolve("b"), broker.bootstrapServers(), crawl, PARTITIONS, "b");
    try (DemoSite site = DemoSite.start(new DemoSiteSpec(hosts))) {
      CrawlEnvironment env = CrawlEnvironment.standard().withDns(site.dns());
      try (Running a = Running.start(ca, env)) {
        ClusterWaits.awaitOwners(topics, broker.bootstrapServers(), 1, Duration.ofSeconds(60));
        ClusterSeeds.add(ca, site.seeds(), "the test site");
        for (int move = 0; move < MOVES; move++) {
          Thread.sleep(2_000);
          try (Running b = Running.start(cb, env)) {
            ClusterWaits.awaitOwners(topics, broker.bootstrapServers(), 2, Duration.ofSeconds(60));
            Thread.sleep(2_000);
          }
          ClusterWaits.awaitOwners(topics, broker.bootstrapServers(), 1, Duration.ofSeconds(60));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        int idle = 0;
        while (idle < 4 && System.nanoTime() < deadline) {
          idle = a.node().idle() ? idle + 1 : 0;
          Thread.sleep(250);
        }
        assertThat(idle).as("node a ends the crawl").isEqualTo(4);
      }
      RequestLog log = site.requests();
      CrawledOnce crawled = CrawledOnce.of(log, site.expectedFetches(h -> true));
      assertThat(crawled.missed()).as("pages never requested").isEmpty();
      assertThat(crawled.twice()).as("pages requested twice").isEmpty();
      Set<String> moved = hostsOfBoth(dir.resolve("a").resolve("crawl.log"), dir.resolve("b").resolve("crawl.log"));
      Map<String, String> rests = new TreeMap<>();
      for (DemoHost h : hosts) {
        rests.put(h.name(), CrawledOnce.shortestRest(log, h.name()));
        assertThat(log.maxConcurrent(h.name())).as("requests at once to " + h.name()).isLessThanOrEqualTo(1);
      }
      System.out.printf("hand-over politeness: hosts fetched by both nodes %s; shortest rests %s%n", moved, rests);
      assertThat(moved).as("hosts whose partition moved in the middle of their crawl").isNotEmpty();
      for (DemoHost h : hosts) {
        assertThat(log.minGap(h.name())).as("the shortest rest of " + h.name()).isGreaterThanOrEqualTo(CRAWL_DELAY);
      }
    }
  }

  /** The hosts each node's crawl log has lines of. */
  private static Set<String> hostsOfBoth(Path logA, Path logB) throws Exception {
    Set<String> ofA = hostsIn(logA);
    Set<String> ofB = hostsIn(logB);
    ofA.retainAll(ofB);
    return ofA;
  }

  private static Set<String> hostsIn(Path crawlLog) throws Exception {
    Set<String> hosts = new TreeSet<>();
    if (Files.exists(crawlLog)) {
      for (CrawlLogEntry e : CrawlLogReader.readAll(crawlLog)) {
        hosts.add(CrawlUrl.of(e.url()).hostKey());
      }
    }
    return hosts;
  }
}
