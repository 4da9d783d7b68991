package dev.crawler.crawl;

import dev.crawler.config.CrawlConfig;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.frontier.FrontierOptions;
import dev.crawler.store.SmallStore;
import java.util.Locale;

/**
 * The memory a crawl's configuration asks for, worked out before anything is opened: the heap
 * (the URL-seen filter and its memory of recent URLs, the frontier's read-ahead and its hosts
 * beyond their default counts, and an allowance for the rest) and the native memory of its
 * RocksDB stores. {@code bin/crawler} gives the JVM {@link #maxHeapOption()}; the crawl logs
 * {@link #summary(long)} at start.
 *
 * @param filter the URL-seen service's first Bloom filter (heap)
 * @param recentUrls its memory of recent URLs (heap)
 * @param frontierHeap the frontier's read-ahead budget and its hosts beyond their default counts (heap)
 * @param frontierNative the frontier's block cache, which its memtables are charged to (native)
 * @param seenStoreNative the URL-seen exact store's block cache and write buffers (native)
 * @param smallStoresNative the robots.txt store, and the queue-key store under {@code queue-by: ip} (native)
 */
public record CrawlMemory(long filter, long recentUrls, long frontierHeap, long frontierNative,
    long seenStoreNative, long smallStoresNative) {
  /**
   * The heap of everything else: fetch and parse buffers, OkHttp, WARC, the stats, the frontier's
   * hosts at their default counts (up to 100,000 known and 20,000 ready), and room for the
   * collector to work in. Measured (docs/measurements.md): in a 20,000-page crawl at the defaults
   * the live heap beside the filter and recent URLs, read-ahead included, stayed within this.
   */
  static final long REST_OF_HEAP = 64L << 20;

  public static CrawlMemory of(CrawlConfig config) {
    UrlSeenService.Options seen = CrawlSetup.seen(config, config.crawl().dataDir());
    FrontierOptions frontier = CrawlSetup.frontier(config);
    int smallStores = config.politeness().queueBy() == CrawlConfig.Politeness.QueueBy.IP ? 2 : 1;
    return new CrawlMemory(UrlSeenService.filterHeapBytes(seen), UrlSeenService.recentHeapBytes(seen),
        frontier.readAheadBytes() + CrawlSetup.frontierHostsBeyondDefaults(frontier),
        // Memtables charged to a cache push out its blocks; past its size they take more.
        Math.max(frontier.blockCacheBytes(), frontier.memtableBytes()),
        UrlSeenService.storeNativeBytes(seen), smallStores * SmallStore.NATIVE_BYTES);
  }

  public long heap() {
    return filter + recentUrls + frontierHeap + REST_OF_HEAP;
  }

  public long nativeMemory() {
    return frontierNative + seenStoreNative + smallStoresNative;
  }

  /** The JVM option that gives the crawl its heap, in whole megabytes rounded up: {@code -Xmx283m}. */
  public String maxHeapOption() {
    return "-Xmx" + megabytesUp(heap()) + "m";
  }

  /** One line for the start-up log: what the crawl expects, against the heap this JVM has. */
  public String summary(long maxHeap) {
    return String.format(Locale.ROOT, "Memory: this JVM may use %,d MB of heap; the crawl expects %,d MB of heap"
        + " (URL-seen filter %,d MB, recent URLs %,d MB, frontier read-ahead and hosts %,d MB, the rest %,d MB)"
        + " and up to %,d MB of native memory (frontier block cache and memtables %,d MB, URL-seen store cache and"
        + " write buffers %,d MB, small stores %,d MB)",
        maxHeap >> 20, megabytesUp(heap()), megabytesUp(filter), megabytesUp(recentUrls), megabytesUp(frontierHeap),
        REST_OF_HEAP >> 20, megabytesUp(nativeMemory()), megabytesUp(frontierNative), megabytesUp(seenStoreNative),
        megabytesUp(smallStoresNative));
  }

  private static long megabytesUp(long bytes) {
    return (bytes + (1L << 20) - 1) >> 20;
  }
}
