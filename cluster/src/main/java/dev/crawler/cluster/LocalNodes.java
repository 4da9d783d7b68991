package dev.crawler.cluster;

import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.crawl.StopReason;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Nodes of one crawl in this JVM, each on a thread of its own: for {@code crawler cluster demo}
 * and the tests, which start several and wait for them together. Each node is what
 * {@code crawler node} runs; only the process is shared.
 */
public final class LocalNodes implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LocalNodes.class);
  private static final Duration CHECK = Duration.ofMillis(250);

  private final int partitions;
  private final Map<String, ClusterNode> nodes = new LinkedHashMap<>();
  private final Map<String, Thread> threads = new ConcurrentHashMap<>();
  private final Map<String, StopReason> ended = new ConcurrentHashMap<>();

  public LocalNodes(int partitions) {
    this.partitions = partitions;
  }

  /** Opens a node on {@code config} and starts it: it joins the group. */
  public ClusterNode start(CrawlConfig config, CrawlEnvironment env) throws IOException {
    ClusterNode node = ClusterNode.open(config, env);
    String id = node.nodeId();
    if (nodes.containsKey(id)) {
      node.close();
      throw new IllegalArgumentException("two nodes named " + id + ": give each its own cluster.node-id");
    }
    nodes.put(id, node);
    threads.put(id, Thread.ofPlatform().name("node-" + id).start(() -> {
      try {
        ended.put(id, node.run());
      } catch (InterruptedException e) {
        ended.put(id, StopReason.STOPPED);
      }
    }));
    return node;
  }

  public List<ClusterNode> nodes() {
    return List.copyOf(nodes.values());
  }

  /**
   * Waits until every running node owns at least one partition and together they own each of the
   * crawl's partitions once, the same for a second: the group has settled.
   *
   * @throws IllegalStateException if it has not within {@code timeout}
   */
  public void awaitSettled(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<String, Set<Integer>> last = Map.of();
    long sameSince = System.nanoTime();
    while (true) {
      Map<String, Set<Integer>> now = owners();
      boolean whole = now.values().stream().noneMatch(Set::isEmpty)
          && now.values().stream().mapToInt(Set::size).sum() == partitions
          && now.values().stream().flatMap(Set::stream).distinct().count() == partitions;
      if (!now.equals(last)) {
        last = now;
        sameSince = System.nanoTime();
      } else if (whole && System.nanoTime() - sameSince >= Duration.ofSeconds(1).toNanos()) {
        log.info("The group has settled: {}", now);
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the group did not settle in " + timeout.toSeconds() + " s: " + now);
      }
      Thread.sleep(CHECK.toMillis());
    }
  }

  /** Each running node's partitions now. */
  public Map<String, Set<Integer>> owners() {
    Map<String, Set<Integer>> owned = new LinkedHashMap<>();
    for (ClusterNode node : nodes.values()) {
      if (!ended.containsKey(node.nodeId())) {
        owned.put(node.nodeId(), new HashSet<>(node.ownedPartitions()));
      }
    }
    return owned;
  }

  /**
   * Waits until the crawl has nothing left: every node idle (nothing queued or leased, every
   * record of its partitions taken) at two checks a second apart, with the group settled.
   *
   * @return false if that did not happen within {@code timeout}, or a node failed
   */
  public boolean awaitIdle(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    int idleChecks = 0;
    while (System.nanoTime() < deadline) {
      if (nodes.values().stream().anyMatch(ClusterNode::failed)) {
        return false;
      }
      boolean idle = nodes.values().stream().filter(n -> !ended.containsKey(n.nodeId())).allMatch(ClusterNode::idle)
          && owners().values().stream().mapToInt(Set::size).sum() == partitions;
      idleChecks = idle ? idleChecks + 1 : 0;
      if (idleChecks >= 4) {
        return true;
      }
      Thread.sleep(CHECK.toMillis());
    }
    return false;
  }

  /** Asks every node to stop and waits for them, one after the other, so each hands its partitions to the rest. */
  public void stopAll() throws InterruptedException {
    List<String> ids = new ArrayList<>(nodes.keySet());
    for (String id : ids) {
      nodes.get(id).stop();
    }
    for (String id : ids) {
      threads.get(id).join();
    }
  }

  /** Stops the nodes, then closes them all at once: they leave the group together, and no partition moves among them. */
  @Override
  public void close() throws IOException, InterruptedException {
    stopAll();
    List<Thread> closing = new ArrayList<>();
    List<IOException> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (ClusterNode node : nodes.values()) {
      closing.add(Thread.ofPlatform().name("close-" + node.nodeId()).start(() -> {
        try {
          node.close();
        } catch (IOException e) {
          failures.add(e);
        }
      }));
    }
    for (Thread t : closing) {
      t.join();
    }
    if (!failures.isEmpty()) {
      throw failures.get(0);
    }
  }
}
