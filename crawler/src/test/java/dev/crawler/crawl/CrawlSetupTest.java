package dev.crawler.crawl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.dedup.BloomFilter;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.dedup.internal.RecentFingerprints;
import dev.crawler.frontier.FrontierOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The YAML keys reach the libraries' options: a key read but not passed on would do nothing, silently. */
class CrawlSetupTest {
  private static final Path DIR = Path.of("/crawls/example/seen");

  private static CrawlConfig parse(String yaml) {
    return ConfigLoader.parse(yaml, "crawl.yaml", Path.of("/crawls/example"));
  }

  @Test
  void aConfigWithAClusterIsRefusedBeforeAnythingIsCreated(@TempDir Path dir) {
    CrawlConfig config = ConfigLoader.parse("""
        crawl: {user-agent: {name: testbot}, data-dir: crawl-data}
        cluster: {bootstrap-servers: ["127.0.0.1:9092"], name: docs}
        """, "crawl.yaml", dir);
    assertThatThrownBy(() -> Crawl.open(config, Crawl.Start.NEW, CrawlEnvironment.standard()))
        .isInstanceOf(CrawlStartException.class).hasMessageContaining("crawls on this machine alone")
        .hasMessageContaining("bin/crawler node --config").hasMessageContaining("remove the section");
    assertThat(dir.resolve("crawl-data")).doesNotExist();
  }

  @Test
  void theSeenMemoriesReachTheUrlSeenService() {
    UrlSeenService.Options options = CrawlSetup.seen(parse("""
        seen:
          recent-memory: 128MB
          store-cache: 320MB
        """), DIR);
    assertThat(options.recentUrls()).isEqualTo(16_777_216);   // 128MB of 8-byte fingerprints
    assertThat(options.storeCacheBytes()).isEqualTo(320L << 20);
  }

  @Test
  void thePageLayoutReachesTheUrlSeenServiceAndTakesLessHeapForTheSameRate() {
    UrlSeenService.Options page = CrawlSetup.seen(parse("seen: {filter-layout: page}"), DIR);
    UrlSeenService.Options cacheLine = CrawlSetup.seen(parse("seen: {filter-layout: cache-line}"), DIR);
    assertThat(page.layout()).isEqualTo(BloomFilter.Layout.PAGE);
    assertThat(cacheLine.layout()).isEqualTo(BloomFilter.Layout.CACHE_LINE);
    // At 1% the page layout needs about 9.7 bits a URL where the cache-line one needs 10.0 (dedup/README.md).
    assertThat(UrlSeenService.heapBytes(page)).isLessThan(UrlSeenService.heapBytes(cacheLine));
  }

  @Test
  void anUnlimitedDepthIsTheDeepestTheFrontierStores() {
    assertThat(CrawlSetup.scope(parse("crawl: {limits: {max-depth: unlimited}}")).maxDepth())
        .isEqualTo(dev.crawler.frontier.FrontierEntry.MAX_DEPTH);
    assertThat(CrawlSetup.scope(parse("crawl: {limits: {max-depth: 7}}")).maxDepth()).isEqualTo(7);
  }

  @Test
  void theSeenDefaultsAreTheServicesOwn() {
    UrlSeenService.Options fromConfig = CrawlSetup.seen(parse(""), DIR);
    assertThat(fromConfig).isEqualTo(UrlSeenService.Options.defaults(DIR));
  }

  @Test
  void aRecentMemoryBetweenPowersOfTwoIsRoundedDownSoTheHeapStaysWithinIt() {
    UrlSeenService.Options options = CrawlSetup.seen(parse("seen: {recent-memory: 100MB}"), DIR);
    assertThat(options.recentUrls()).isEqualTo(8_388_608);   // 64MB of 8-byte fingerprints, not 128MB
  }

  @Test
  void theLargestRecentMemoryTheConfigAllowsIsTheLargestTheServiceTakes() {
    UrlSeenService.Options options = CrawlSetup.seen(parse("seen: {recent-memory: 8GB}"), DIR);
    assertThat(options.recentUrls()).isEqualTo(RecentFingerprints.MAX_CAPACITY);
  }

  @Test
  void theFrontierSizesReachTheFrontier() {
    FrontierOptions options = CrawlSetup.frontier(parse("""
        frontier:
          working-set-hosts: 50_000
          known-hosts: 1_000_000
          read-ahead: 256MB
          block-cache: 1GB
          memtables: 96MB
        """));
    assertThat(options.workingSetHosts()).isEqualTo(50_000);
    assertThat(options.knownHostsCache()).isEqualTo(1_000_000);
    assertThat(options.readAheadBytes()).isEqualTo(256L << 20);
    assertThat(options.blockCacheBytes()).isEqualTo(1L << 30);
    assertThat(options.memtableBytes()).isEqualTo(96L << 20);
  }

  @Test
  void theFrontierSizeDefaultsAreTheFrontiersOwnAndAddNoHeap() {
    FrontierOptions fromConfig = CrawlSetup.frontier(parse(""));
    FrontierOptions own = FrontierOptions.defaults();
    assertThat(List.of(fromConfig.workingSetHosts(), fromConfig.knownHostsCache(), fromConfig.readAheadBytes(),
        fromConfig.blockCacheBytes(), fromConfig.memtableBytes()))
        .isEqualTo(List.of(own.workingSetHosts(), own.knownHostsCache(), own.readAheadBytes(), own.blockCacheBytes(),
            own.memtableBytes()));
    assertThat(CrawlSetup.frontierHeapBeyondDefaults(fromConfig)).isZero();
  }

  @Test
  void aFrontierTheHeapCannotHoldStopsTheStartNamingItsKeys() {
    UrlSeenService.Options seen = CrawlSetup.seen(parse("seen: {expected-urls: 1_000_000}"), DIR);
    FrontierOptions big = CrawlSetup.frontier(parse("frontier: {known-hosts: 2_100_000, read-ahead: 1GB}"));
    // 2,000,000 known hosts beyond the default at 500 bytes, and 960 MB more read-ahead.
    assertThat(CrawlSetup.frontierHeapBeyondDefaults(big)).isEqualTo(2_000_000L * 500 + (960L << 20));
    long fits = UrlSeenService.heapBytes(seen) + CrawlSetup.HEAP_BESIDE_SEEN + CrawlSetup.frontierHeapBeyondDefaults(big);

    assertThatThrownBy(() -> CrawlSetup.checkFitsTheHeap(seen, big, fits - 1))
        .isInstanceOf(CrawlStartException.class)
        .hasMessageContaining("the frontier's sizes beyond their defaults 1,913 MB")
        .hasMessageContaining("frontier.known-hosts");
    CrawlSetup.checkFitsTheHeap(seen, big, fits);   // just fits: no error
    // At its defaults the frontier counts nothing beyond the floor: the seen memory and the floor just fit.
    long floor = UrlSeenService.heapBytes(seen) + CrawlSetup.HEAP_BESIDE_SEEN;
    CrawlSetup.checkFitsTheHeap(seen, FrontierOptions.defaults(), floor);
    assertThatThrownBy(() -> CrawlSetup.checkFitsTheHeap(seen, FrontierOptions.defaults(), floor - 1))
        .isInstanceOf(CrawlStartException.class).hasMessageNotContaining("frontier");
  }

  @Test
  void aSeenMemoryTheHeapCannotHoldStopsTheStartWithTheFiguresAndTheKeys() {
    UrlSeenService.Options billion = CrawlSetup.seen(parse("seen: {expected-urls: 1_000_000_000}"), DIR);
    long filterAndRecent = UrlSeenService.heapBytes(billion);
    assertThat(filterAndRecent).as("about 1.2 GB at 1%%").isBetween(1_000L << 20, 1_500L << 20);

    assertThatThrownBy(() -> CrawlSetup.checkFitsTheHeap(billion, FrontierOptions.defaults(), 1L << 30))
        .isInstanceOf(CrawlStartException.class)
        .hasMessageContaining("this JVM may use only 1,024 MB")
        .hasMessageContaining("CRAWLER_JAVA_OPTS=-Xmx")
        .hasMessageContaining("seen.expected-urls");
    CrawlSetup.checkFitsTheHeap(billion, FrontierOptions.defaults(), filterAndRecent + CrawlSetup.HEAP_BESIDE_SEEN);   // just fits: no error
  }
}
