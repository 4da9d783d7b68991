package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cluster.broker.SharedBroker;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.CrawlSetup;
import dev.crawler.frontier.FetchOutcome;
import dev.crawler.frontier.HostQueues;
import dev.crawler.frontier.Lease;
import dev.crawler.frontier.Partitions;
import dev.crawler.intake.AdmittedUrl;
import dev.crawler.scope.Scope;
import dev.crawler.stats.CrawlStats;
import dev.crawler.url.CrawlUrl;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Node a owns the crawl's partitions; node b joins and leaves ten times, so half the partitions
 * move to b and back each time, b continuing from its own checkpoints when they return. The
 * nodes are the real placement ({@link NodePlacement}: topics, states, hand-over) with a fetch
 * that only records the URL and offers its links, so the oracle knows every URL offered and
 * every fetch. No URL is lost; a clean hand-over puts back the leases that had not made their
 * request and waits for the rest, and flushes the done records first, so the bound on URLs
 * fetched twice is 0; and the final owner's filter has no false negative for any fetched URL.
 */
@ExtendWith(SharedBroker.class)
class PartitionMovesTest {
  private static final int PARTITIONS = 6;
  private static final int HOSTS = 12;
  private static final int URLS = 6_000;
  private static final int WORKERS = 12;
  private static final int MOVES = 10;

  /** One node: its placement and the workers that "fetch" from it. */
  private final class Node implements AutoCloseable {
    final String id;
    final NodePlacement placement;
    final List<Thread> workers = new ArrayList<>();
    volatile boolean stopping;

    Node(String id, CrawlConfig config, Path folder) throws Exception {
      this.id = id;
      this.placement = NodePlacement.open(config, folder, new CrawlStats());
      placement.start(new Scope(CrawlSetup.scope(config)), e -> {
        throw e;
      });
      for (int i = 0; i < WORKERS; i++) {
        workers.add(Thread.ofVirtual().name("worker-" + id + "-" + i).start(this::work));
      }
    }

    void work() {
      HostQueues queues = placement.queues();
      while (!stopping) {
        Optional<Lease> lease;
        try {
          lease = queues.next(Duration.ofMillis(50));
        } catch (InterruptedException e) {
          return;
        }
        if (lease.isEmpty()) {
          continue;
        }
        Lease l = lease.get();
        if (!queues.mayRequest(l)) {
          queues.complete(l, FetchOutcome.DEFERRED);
          continue;
        }
        try {
          queues.startRequest(l);
          Thread.sleep(requestMillis);   // the request: slow while the partitions move, so the crawl outlasts them
        } catch (InterruptedException e) {
          return;
        }
        fetches.computeIfAbsent(l.url(), u -> new AtomicLong()).incrementAndGet();
        fetchCount.incrementAndGet();
        placement.admitted().take(linksOf(l.url()));
        queues.complete(l, FetchOutcome.FETCHED);
      }
    }

    @Override
    public void close() throws Exception {
      stopping = true;
      for (Thread t : workers) {
        t.join();
      }
      placement.close();   // leaves the group: its partitions are handed over
      skippedAsDoneElsewhere.addAndGet(((OwnedQueues) placement.queues()).skippedDoneElsewhere());
    }
  }

  private final Map<String, AtomicLong> fetches = new ConcurrentHashMap<>();
  private final AtomicLong fetchCount = new AtomicLong();
  private final AtomicLong skippedAsDoneElsewhere = new AtomicLong();
  private volatile long requestMillis = 180;
  private final Set<String> offered = ConcurrentHashMap.newKeySet();

  private static String url(int i) {
    return "http://h" + (i % HOSTS) + ".example.com/p/" + i;
  }

  private static int indexOf(String url) {
    return Integer.parseInt(url.substring(url.lastIndexOf('/') + 1));
  }

  /** Each page links to its next and to two others: every URL is reachable from the seeds. */
  private List<AdmittedUrl> linksOf(String url) {
    int i = indexOf(url);
    List<AdmittedUrl> links = new ArrayList<>();
    for (int next : new int[] {i + HOSTS, (i * 7 + 3) % URLS, (i * 13 + 5) % URLS}) {
      if (next < URLS) {
        links.add(admitted(url(next), url));
      }
    }
    return links;
  }

  private AdmittedUrl admitted(String url, String via) {
    offered.add(url);
    CrawlUrl u = CrawlUrl.of(url);
    return new AdmittedUrl(u, u.hostKey(), via == null ? 0 : 1, via, 0);
  }

  @Test
  void aPartitionMovedTenTimesLosesNoUrlAndFetchesNoneTwice(SharedBroker.Address broker, @TempDir Path dir)
      throws Exception {
    String crawl = "moves-" + System.nanoTime();
    CrawlConfig ca = DemoCluster.nodeConfig(dir.resolve("a"), broker.bootstrapServers(), crawl, PARTITIONS, "a");
    CrawlConfig cb = DemoCluster.nodeConfig(dir.resolve("b"), broker.bootstrapServers(), crawl, PARTITIONS, "b");
    ClusterTopics topics = new ClusterTopics(crawl, PARTITIONS);
    int bReturns = 0;
    try (Node a = new Node("a", ca, dir.resolve("a"))) {
      ClusterWaits.awaitOwners(topics, broker.bootstrapServers(), 1, Duration.ofSeconds(60));
      List<AdmittedUrl> seeds = new ArrayList<>();
      for (int h = 0; h < HOSTS; h++) {
        seeds.add(admitted(url(h), null));
      }
      try (UrlTopicProducer producer = new UrlTopicProducer(topics, NodePlacement.clientConfig(ca), "zstd")) {
        producer.take(seeds);
      }
      for (int move = 0; move < MOVES; move++) {
        awaitFetches(40);
        try (Node b = new Node("b", cb, dir.resolve("b"))) {
          ClusterWaits.awaitOwners(topics, broker.bootstrapServers(), 2, Duration.ofSeconds(60));
          bReturns++;
          awaitFetches(40);
        }
        ClusterWaits.awaitOwners(topics, broker.bootstrapServers(), 1, Duration.ofSeconds(60));
      }
      requestMillis = 1;
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      int idle = 0;
      while (idle < 4 && System.nanoTime() < deadline) {
        idle = a.placement.idle() ? idle + 1 : 0;
        Thread.sleep(250);
      }
      assertThat(idle).as("node a ends the crawl").isEqualTo(4);
    }
    Set<String> lost = new HashSet<>(offered);
    lost.removeAll(fetches.keySet());
    Map<String, Long> twice = new HashMap<>();
    fetches.forEach((u, n) -> {
      if (n.get() > 1) {
        twice.put(u, n.get());
      }
    });
    System.out.printf("partition moves: %d fetches of %d URLs offered, b joined %d times, %d fetched twice, %d leases "
        + "ended unfetched as done elsewhere%n", fetchCount.get(), offered.size(), bReturns, twice.size(),
        skippedAsDoneElsewhere.get());
    assertThat(bReturns).isEqualTo(MOVES);
    assertThat(offered).as("URLs offered").hasSize(URLS);
    assertThat(lost).as("URLs offered and never fetched").isEmpty();
    assertThat(twice).as("URLs fetched more than once").isEmpty();
    // The filter of the partitions' last owner (a) has every fetched URL, through a close and reopen.
    Map<Integer, List<String>> byPartition = new HashMap<>();
    for (String u : fetches.keySet()) {
      byPartition.computeIfAbsent(Partitions.of(CrawlUrl.of(u).hostKey(), PARTITIONS), k -> new ArrayList<>()).add(u);
    }
    for (var e : byPartition.entrySet()) {
      Path folder = dir.resolve("a").resolve("partitions").resolve(Integer.toString(e.getKey()));
      try (PartitionState state = PartitionState.open(folder, e.getKey(), NodePlacement.partitionOptions(ca))) {
        assertThat(e.getValue()).as("fetched URLs of partition " + e.getKey() + " its filter misses")
            .allMatch(u -> state.seen().mightHaveSeen(u));
      }
    }
  }

  private void awaitFetches(int more) throws InterruptedException {
    long target = fetchCount.get() + more;
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (fetchCount.get() < target && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    if (fetchCount.get() < target) {
      throw new AssertionError("fetches so far " + fetchCount.get() + ", expected " + target + " within 60 s"
          + ClusterWaits.everyThread());
    }
  }
}
