package dev.crawler.cluster;

import dev.crawler.dedup.UrlSeenStats;
import java.util.List;

/** A node's URL-seen figures: the sums over the partitions it owns, with the fill and rate weighted by capacity. */
final class SeenStatsSum {
  private SeenStatsSum() {}

  static UrlSeenStats of(List<UrlSeenStats> parts) {
    long checks = 0;
    long newUrls = 0;
    long seen = 0;
    long recentHits = 0;
    long maybes = 0;
    long storeReads = 0;
    long caught = 0;
    double skips = 0;
    int filters = 0;
    long urls = 0;
    long capacity = 0;
    long bytes = 0;
    double fill = 0;
    double rate = 0;
    for (UrlSeenStats s : parts) {
      checks += s.checks();
      newUrls += s.newUrls();
      seen += s.seen();
      recentHits += s.recentHits();
      maybes += s.filterMaybes();
      storeReads += s.storeReads();
      caught += s.caughtFalsePositives();
      skips += s.estimatedSkips();
      filters += s.filters();
      urls += s.filterUrls();
      capacity += s.filterCapacity();
      bytes += s.filterBytes();
      fill += s.fillRatio() * s.filterCapacity();
      rate += s.estimatedRate() * s.filterCapacity();
    }
    double weight = Math.max(1, capacity);
    // Each partition's stack of filters is its own: a node-wide stack would mix them, so none is given.
    return new UrlSeenStats(checks, newUrls, seen, recentHits, maybes, storeReads, caught, skips, filters, urls,
        capacity, fill / weight, rate / weight, bytes, List.of());
  }
}
