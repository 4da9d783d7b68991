package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cluster.broker.SharedBroker;
import dev.crawler.demo.DemoHost;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import dev.crawler.demo.RequestLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole cluster, two nodes each in a JVM of its own, is killed with SIGKILL mid-crawl and
 * started again on the same folders. The crawl resumes and ends with every page requested.
 * Pages requested twice are at most {@link #BOUND}: each node's leases out at the kill, its
 * completions not yet on the done topic, and per partition the one take a kill can leave queued
 * and not yet recorded as seen. Each restarted node continues the partitions it held from their
 * checkpoints; the test prints how many URL records were read again.
 */
@ExtendWith(SharedBroker.class)
class ClusterRestartTest {
  private static final int PARTITIONS = 4;
  private static final int NODES = 2;
  private static final int WORKERS = 8;
  private static final int BOUND = NODES * 2 * WORKERS + PARTITIONS;
  /** A partition in the consumer's "Taking" line that starts where its local state stands. */
  private static final Pattern CONTINUED = Pattern.compile("\\d+ from its checkpoint \\(\\d+\\)");
  private static final Pattern TAKING = Pattern.compile("Taking \\d+ partition\\(s\\), (\\d+) URL record\\(s\\) to read");

  @Test
  void theWholeClusterKilledAndRestartedLosesNothingAndContinuesFromItsCheckpoints(SharedBroker.Address broker,
      @TempDir Path dir) throws Exception {
    List<DemoHost> hosts = new ArrayList<>(DemoSiteSpec.demo().hosts());
    for (int i = 1; i <= 6; i++) {
      hosts.add(DemoHost.plain("site-" + i + ".example.com", 30));
    }
    try (DemoSite site = DemoSite.start(new DemoSiteSpec(hosts))) {
      for (DemoHost h : hosts) {
        site.answerAfter(h.name(), Duration.ofMillis(60));
      }
      String crawl = "restart-" + System.nanoTime();
      ClusterTopics topics = new ClusterTopics(crawl, PARTITIONS);
      List<Path> configs = new ArrayList<>();
      for (int i = 1; i <= NODES; i++) {
        Path file = dir.resolve("n" + i + ".yaml");
        Files.writeString(file, DemoCluster.nodeYaml(dir.resolve("n" + i), broker.bootstrapServers(), crawl,
            PARTITIONS, "n" + i));
        configs.add(file);
      }
      Set<String> expected = site.expectedFetches(h -> h.endsWith(".example.com"));
      List<ChildNode> first = startAll(configs, dir, "first");
      ClusterWaits.awaitOwners(topics, broker.bootstrapServers(), NODES, Duration.ofSeconds(90));
      ClusterSeeds.add(DemoCluster.nodeConfig(dir.resolve("seeder"), broker.bootstrapServers(), crawl, PARTITIONS,
          "seeder"), site.seeds(), "the test site");
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (site.requests().size() < expected.size() / 3 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      for (ChildNode c : first) {
        c.kill();
      }
      int atKill = site.requests().size();
      assertThat(atKill).as("requests before the kill").isLessThan(expected.size());
      List<ChildNode> second = startAll(configs, dir, "second");
      try {
        ClusterWaits.awaitOwners(topics, broker.bootstrapServers(), NODES, Duration.ofSeconds(90));
        awaitQuiet(site, expected, topics, broker.bootstrapServers());
      } finally {
        for (ChildNode c : second) {
          c.close();
        }
      }
      RequestLog log = site.requests();
      CrawledOnce crawled = CrawledOnce.of(log, expected);
      Set<String> missed = crawled.missed();
      Set<String> twice = crawled.twice().keySet();
      assertThat(missed).as("pages never requested").isEmpty();
      assertThat(twice.size()).as("pages requested twice: " + twice).isLessThanOrEqualTo(BOUND);
      for (DemoHost h : hosts) {
        assertThat(log.maxConcurrent(h.name())).as("requests at once to " + h.name()).isLessThanOrEqualTo(1);
      }
      assertThat(log.minGap("slow.example.com")).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
      long continued = 0;
      long reread = 0;
      long recordsTotal = ClusterStatus.read(topics, Map.of("bootstrap.servers", broker.bootstrapServers()),
          Duration.ofSeconds(10)).urlRecords();
      for (int i = 1; i <= NODES; i++) {
        String second2 = Files.readString(dir.resolve("n" + i + "-second.log"));
        continued += CONTINUED.matcher(second2).results().count();
        Matcher m = TAKING.matcher(second2);
        while (m.find()) {
          reread += Long.parseLong(m.group(1));
        }
      }
      assertThat(continued).as("partitions the restarted nodes continued from a checkpoint").isGreaterThan(0);
      System.out.printf("restart test: %d requests at the kill, %d pages twice (bound %d), %d partition(s) continued "
          + "from checkpoints, %d URL records read after the restart of %d in the topic%n", atKill, twice.size(), BOUND,
          continued, reread, recordsTotal);
    }
  }

  private static List<ChildNode> startAll(List<Path> configs, Path dir, String run) throws Exception {
    List<ChildNode> nodes = new ArrayList<>();
    for (int i = 0; i < configs.size(); i++) {
      nodes.add(ChildNode.start(configs.get(i), dir.resolve("n" + (i + 1) + "-" + run + ".log")));
    }
    return nodes;
  }

  /** Until every expected page was requested, no URL record is left to take, and the site heard nothing for 3 s. */
  private static void awaitQuiet(DemoSite site, Set<String> expected, ClusterTopics topics, String bootstrap)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
    int lastSize = -1;
    long quietSince = System.nanoTime();
    while (System.nanoTime() < deadline) {
      int size = site.requests().size();
      if (size != lastSize) {
        lastSize = size;
        quietSince = System.nanoTime();
      } else if (System.nanoTime() - quietSince > Duration.ofSeconds(3).toNanos()
          && site.requests().countsByUrl().keySet().containsAll(expected)
          && ClusterStatus.read(topics, Map.of("bootstrap.servers", bootstrap), Duration.ofSeconds(10)).lag() == 0) {
        return;
      }
      Thread.sleep(250);
    }
    throw new AssertionError("the restarted cluster did not end the crawl in 180 s");
  }
}
