package dev.crawler.crawl;

import dev.crawler.dedup.UrlSeenStats;
import dev.crawler.frontier.HostQueues;
import dev.crawler.intake.AdmittedUrls;
import dev.crawler.scope.Scope;
import dev.crawler.stats.CrawlStats;
import dev.crawler.status.CrawlStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * Where a crawl's URLs are checked, queued and leased from. On one machine, its own URL-seen
 * service and frontier ({@link LocalPlacement}); on a cluster node, the partitions the node owns,
 * fed by the crawl's topics. Everything else of a crawl (fetching, robots.txt, scope, records,
 * stats) is the same either way, and built by {@link CrawlAssembly}.
 */
public interface CrawlPlacement extends AutoCloseable {
  /** Opens a placement in the crawl's folder, under its lock. */
  interface Opener {
    CrawlPlacement open(Path crawlFolder, CrawlStats stats) throws IOException;
  }

  /** The queues the workers lease from. */
  HostQueues queues();

  /** Where the intake's admitted URLs go. */
  AdmittedUrls admitted();

  /** The URL-seen counts of the stats line. */
  UrlSeenStats seenStats();

  /** The native memory of the stores, for the metrics. */
  CrawlStatus.NativeMemory nativeMemory();

  /**
   * Whether the crawl ends once nothing is queued here. A node never ends on its own: other
   * nodes may send its partitions URLs at any time.
   */
  boolean endsWhenEmpty();

  /** What this crawl's stats lines start with, for several in one log: empty here, the node's name on a node. */
  default String label() {
    return "";
  }

  /** Figures of this placement for the status page's {@code /metrics}: none here; a node's partitions on a node. */
  default List<CrawlStatus.LiveGauge> gauges() {
    return List.of();
  }

  /**
   * What this crawl's stats lines end with, after the crawl's own figures, as of now: empty here;
   * on a node, its partitions, their lag and whether it is paused. Must return quickly.
   */
  default String statsTail() {
    return "";
  }

  /**
   * Starts taking work from outside, once every part of the crawl is open; {@code scope} learns
   * new seeds, and {@code failure} stops the crawl on an error the placement cannot go on from.
   */
  void start(Scope scope, Consumer<RuntimeException> failure);

  @Override
  void close() throws IOException;
}
