package dev.crawler.crawl;

import dev.crawler.config.CrawlConfig;
import dev.crawler.dedup.BloomFilter;
import dev.crawler.dedup.UrlNormalizer;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.fetch.FetcherOptions;
import dev.crawler.frontier.FrontierEntry;
import dev.crawler.frontier.FrontierOptions;
import dev.crawler.frontier.SyncPolicy;
import dev.crawler.queue.QueueBy;
import dev.crawler.scope.ScopeMode;
import dev.crawler.scope.ScopeRules;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import okhttp3.Dns;

/**
 * The one place that maps the YAML configuration onto the plain options of each part. The
 * libraries (dedup, frontier) and the crawler's stages never see {@link CrawlConfig}.
 */
public final class CrawlSetup {
  /** Links kept from one page; more are dropped (a trap guard, not a config key yet). */
  static final int MAX_LINKS_PER_PAGE = 10_000;
  /** URLs read from one sitemap file. */
  static final int MAX_URLS_PER_SITEMAP = 50_000;

  private CrawlSetup() {}

  public static UrlNormalizer.Options normalizer(CrawlConfig config) {
    return new UrlNormalizer.Options(config.normalize().stripParameters(), config.normalize().sortQuery(),
        config.scope().maxUrlLength());
  }

  /** What shares one frontier queue, its delay and its connections. */
  public static QueueBy queueBy(CrawlConfig config) {
    return switch (config.politeness().queueBy()) {
      case HOST -> QueueBy.HOST;
      case DOMAIN -> QueueBy.DOMAIN;
      case IP -> QueueBy.IP;
    };
  }

  public static UrlSeenService.Options seen(CrawlConfig config, Path dir) {
    CrawlConfig.Seen seen = config.seen();
    return UrlSeenService.Options.builder(dir)
        .expectedUrls(seen.expectedUrls())
        .falsePositiveRate(seen.falsePositiveRate())
        .memoryBudgetBytes(seen.memoryBudget().map(size -> OptionalLong.of(size.bytes())).orElse(OptionalLong.empty()))
        .layout(switch (seen.filterLayout()) {
          case CACHE_LINE -> BloomFilter.Layout.CACHE_LINE;
          case PAGE -> BloomFilter.Layout.PAGE;
        })
        .policy(switch (seen.falsePositivePolicy()) {
          case ACCEPT -> UrlSeenService.FalsePositivePolicy.ACCEPT;
          case VERIFY -> UrlSeenService.FalsePositivePolicy.VERIFY;
        })
        .onCapacity(switch (seen.onCapacity()) {
          case WARN -> UrlSeenService.CapacityPolicy.WARN;
          case GROW -> UrlSeenService.CapacityPolicy.GROW;
        })
        // The service rounds a count up to a power of two; rounding down here keeps the heap within
        // what the user gave. The config bounds the size to 8GB, so the count fits the int.
        .recentUrls(Integer.highestOneBit(Math.toIntExact(seen.recentMemory().bytes() / Long.BYTES)))
        .storeCacheBytes(seen.storeCache().bytes())
        .build();
  }

  /**
   * Heap the rest of a crawl needs beside the URL-seen memory: fetch buffers, parsing, the
   * frontier at its default sizes. A floor, not a budget: SmallHeapCrawlTest crawls hostile bodies
   * with the default 8 MB recent memory in a 128 MB heap, and the frontier's defaults can take
   * more than this once a crawl has many hosts (FrontierBench's whole heap peaked at 63-76 MB
   * with 100,000 hosts, most of it the 64 MB read-ahead budget, which a small crawl never fills).
   */
  static final long HEAP_BESIDE_SEEN = 64L << 20;
  /**
   * The heap a frontier host costs, measured with FrontierBench (heap after GC with more known
   * hosts and a larger working set): a known host about 440 bytes, a host of the working set about 230 more, plus the
   * URLs it has read ahead (about 250 bytes each): rounded up.
   */
  static final long KNOWN_HOST_BYTES = 500;
  static final long WORKING_SET_HOST_BYTES = 1024;

  /**
   * Refuses to start a crawl whose URL-seen filter and recent-URL memory, with the frontier's
   * memory beyond its default sizes, cannot fit the heap, with the figures and what to change,
   * rather than failing later with an OutOfMemoryError.
   *
   * @param maxHeap the most heap this JVM may use ({@code Runtime.maxMemory()})
   */
  static void checkFitsTheHeap(UrlSeenService.Options seen, FrontierOptions frontier, long maxHeap) {
    long forSeen = UrlSeenService.heapBytes(seen);
    long forFrontier = frontierHeapBeyondDefaults(frontier);
    if (forSeen + forFrontier + HEAP_BESIDE_SEEN > maxHeap) {
      long suggestedMegabytes = (forSeen + forFrontier + 2 * HEAP_BESIDE_SEEN) >> 20;
      String frontierPart = forFrontier == 0 ? "" : String.format(Locale.ROOT,
          ", the frontier's sizes beyond their defaults %,d MB", forFrontier >> 20);
      throw new CrawlStartException(String.format(Locale.ROOT, "the URL-seen filter and its memory of recent URLs need"
          + " %,d MB of heap%s and the rest of the crawl about %,d MB more, but this JVM may use only %,d MB: give it"
          + " more (with bin/crawler: CRAWLER_JAVA_OPTS=-Xmx%dm), or lower seen.expected-urls, seen.memory-budget"
          + " or seen.recent-memory%s", forSeen >> 20, frontierPart, HEAP_BESIDE_SEEN >> 20, maxHeap >> 20,
          suggestedMegabytes, forFrontier == 0 ? ""
              : ", or frontier.working-set-hosts, frontier.known-hosts or frontier.read-ahead"));
    }
  }

  /** The heap the frontier may take beyond what {@link #HEAP_BESIDE_SEEN} counts for its default sizes. */
  static long frontierHeapBeyondDefaults(FrontierOptions f) {
    return frontierHostsBeyondDefaults(f) + Math.max(0, f.readAheadBytes() - FrontierOptions.DEFAULT_READ_AHEAD_BYTES);
  }

  /** The heap of the frontier's hosts (known and in the working set) beyond their default counts. */
  static long frontierHostsBeyondDefaults(FrontierOptions f) {
    return Math.max(0, f.knownHostsCache() - FrontierOptions.DEFAULT_KNOWN_HOSTS_CACHE) * KNOWN_HOST_BYTES
        + Math.max(0, f.workingSetHosts() - FrontierOptions.DEFAULT_WORKING_SET_HOSTS) * WORKING_SET_HOST_BYTES;
  }

  public static FrontierOptions frontier(CrawlConfig config) {
    CrawlConfig.Politeness p = config.politeness();
    return FrontierOptions.builder()
        .defaultDelay(p.defaultDelay())
        .maxCrawlDelay(p.maxCrawlDelay())
        .connectionsPerHost(p.connectionsPerHost())
        .maxRetryAfter(p.maxRetryAfter())
        .backoffInitial(p.errorBackoff().initial())
        .backoffMax(p.errorBackoff().max())
        .suspendAfter(p.errorBackoff().suspendAfter())
        .suspendFor(p.errorBackoff().suspendFor())
        .sync(switch (config.frontier().sync()) {
          case WAL -> SyncPolicy.WAL;
          case FSYNC -> SyncPolicy.FSYNC;
        })
        .partitions(config.frontier().partitions())
        .workingSetHosts(config.frontier().workingSetHosts())
        .knownHostsCache(config.frontier().knownHosts())
        .readAheadBytes(config.frontier().readAhead().bytes())
        .blockCacheBytes(config.frontier().blockCache().bytes())
        .memtableBytes(config.frontier().memtables().bytes())
        .build();
  }

  static FetcherOptions fetcher(CrawlConfig config, String userAgent, Dns dns) {
    CrawlConfig.Fetch f = config.fetch();
    return new FetcherOptions(userAgent, f.timeouts().connect(), f.timeouts().read(), f.timeouts().total(),
        f.maxContentBytes().bytes(), f.maxConnections(), f.acceptedContentTypes(),
        config.scope().allowPrivateAddresses(), dns);
  }

  public static ScopeRules scope(CrawlConfig config) {
    CrawlConfig.Scope s = config.scope();
    ScopeMode mode = switch (s.mode()) {
      case SAME_HOST -> ScopeMode.SAME_HOST;
      case SAME_DOMAIN -> ScopeMode.SAME_DOMAIN;
      case ANY -> ScopeMode.ANY;
    };
    // The frontier stores a depth in 16 bits: "unlimited" is 65,535 links from a seed. A link
    // deeper than that would be refused by the frontier inside the URL-seen batch, and under
    // `accept` stay marked seen, never queued.
    long maxDepth = Math.min(config.crawl().limits().maxDepth().orElse(Long.MAX_VALUE), FrontierEntry.MAX_DEPTH);
    return new ScopeRules(mode, patterns(s.include()), patterns(s.exclude()), (int) maxDepth,
        s.maxUrlLength(), s.maxRepeatedSegments(), s.maxQueryParameters());
  }

  /** The config loader has already compiled each pattern once to validate it. */
  private static List<Pattern> patterns(List<String> regexes) {
    return regexes.stream().map(Pattern::compile).toList();
  }
}
