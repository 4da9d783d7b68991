package dev.crawler.cluster;

import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.Crawl;
import dev.crawler.crawl.CrawlDirectory;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.crawl.StopReason;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One node of a crawl across machines: the crawl of {@link Crawl} (fetching, robots.txt, scope,
 * WARC files, crawl log, stats, status page), its URLs placed on the partitions the group gives
 * it ({@link NodePlacement}). Its folder is {@code crawl.data-dir}; a node started again on the
 * same folder continues from its partitions' checkpoints. It runs until stopped: another node
 * may send its partitions URLs at any time.
 */
public final class ClusterNode implements AutoCloseable {
  private final Crawl crawl;
  private final NodePlacement placement;

  private ClusterNode(Crawl crawl, NodePlacement placement) {
    this.crawl = crawl;
    this.placement = placement;
  }

  /** Opens the node in crawl.data-dir, new or where it was; it joins the group when {@link #run} starts. */
  public static ClusterNode open(CrawlConfig config, CrawlEnvironment env) throws IOException {
    AtomicReference<NodePlacement> made = new AtomicReference<>();
    Crawl.Start start = CrawlDirectory.holdsCrawl(config.crawl().dataDir()) ? Crawl.Start.RESUME : Crawl.Start.NEW;
    Crawl crawl = Crawl.open(config, start, env.withPlacement((folder, stats) -> {
      NodePlacement p = NodePlacement.open(config, folder, stats);
      made.set(p);
      return p;
    }));
    return new ClusterNode(crawl, made.get());
  }

  /** Joins the group and crawls until {@link #stop} (or crawl.limits.max-duration). */
  public StopReason run() throws InterruptedException {
    return crawl.run();
  }

  public void stop() {
    crawl.stop();
  }

  public Crawl crawl() {
    return crawl;
  }

  public String nodeId() {
    return placement.nodeId();
  }

  public List<Integer> ownedPartitions() {
    return placement.ownedPartitions();
  }

  /** Partitions the group took from this node without its hand-over since the start (its session expired). */
  public long lostPartitions() {
    return placement.lostPartitions();
  }

  /** How often this node paused its fetching since the start because the group was silent. */
  public long silencePauses() {
    return placement.silencePauses();
  }

  /** Nothing queued or leased here, and every record of its partitions taken. */
  public boolean idle() {
    return placement.idle();
  }

  public boolean failed() {
    return placement.failed();
  }

  public boolean awaitRunEnded(Duration timeout) throws InterruptedException {
    return crawl.awaitRunEnded(timeout);
  }

  @Override
  public void close() throws IOException {
    crawl.close();
  }
}
