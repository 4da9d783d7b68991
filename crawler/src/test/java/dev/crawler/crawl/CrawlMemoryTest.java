package dev.crawler.crawl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.store.SmallStore;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class CrawlMemoryTest {
  private static CrawlConfig parse(String yaml) {
    return ConfigLoader.parse(yaml, "crawl.yaml", Path.of("/crawls/example"));
  }

  @Test
  void theHeapIsTheFilterTheRecentUrlsTheReadAheadAndTheRest() {
    CrawlConfig config = parse("seen: {expected-urls: 10_000_000, recent-memory: 32MB}\nfrontier: {read-ahead: 96MB}");
    UrlSeenService.Options seen = CrawlSetup.seen(config, Path.of("/crawls/example/seen"));
    CrawlMemory memory = CrawlMemory.of(config);
    assertThat(memory.filter()).isEqualTo(UrlSeenService.filterHeapBytes(seen)).isGreaterThan(10_000_000L);
    assertThat(memory.recentUrls()).isEqualTo(32L << 20);
    assertThat(memory.frontierHeap()).isEqualTo(96L << 20);
    assertThat(memory.heap()).isEqualTo(memory.filter() + (32L << 20) + (96L << 20) + CrawlMemory.REST_OF_HEAP);
  }

  @Test
  void moreFrontierHostsThanTheDefaultsAddTheirHeap() {
    CrawlMemory defaults = CrawlMemory.of(parse("{}"));
    CrawlMemory more = CrawlMemory.of(parse("frontier: {known-hosts: 1_100_000, working-set-hosts: 120_000}"));
    assertThat(more.frontierHeap() - defaults.frontierHeap())
        .isEqualTo(1_000_000 * CrawlSetup.KNOWN_HOST_BYTES + 100_000 * CrawlSetup.WORKING_SET_HOST_BYTES);
  }

  @Test
  void theNativeMemoryIsTheStoresCachesAndBuffers() {
    CrawlMemory memory = CrawlMemory.of(parse("seen: {store-cache: 32MB}\nfrontier: {block-cache: 96MB, memtables: 48MB}"));
    assertThat(memory.frontierNative()).isEqualTo(96L << 20);
    assertThat(memory.seenStoreNative()).isEqualTo(UrlSeenService.storeNativeBytes(
        CrawlSetup.seen(parse("seen: {store-cache: 32MB}"), Path.of("/seen")))).isGreaterThan(32L << 20);
    assertThat(memory.smallStoresNative()).isEqualTo(SmallStore.NATIVE_BYTES);
    assertThat(CrawlMemory.of(parse("politeness: {queue-by: ip}")).smallStoresNative()).isEqualTo(2 * SmallStore.NATIVE_BYTES);
    assertThat(memory.nativeMemory()).isEqualTo((96L << 20) + memory.seenStoreNative() + SmallStore.NATIVE_BYTES);
  }

  @Test
  void memtablesLargerThanTheBlockCacheAreCountedWhole() {
    assertThat(CrawlMemory.of(parse("frontier: {block-cache: 16MB, memtables: 64MB}")).frontierNative())
        .isEqualTo(64L << 20);
  }

  @Test
  void theMaxHeapOptionRoundsUpToAWholeMegabyte() {
    CrawlMemory memory = new CrawlMemory((100L << 20) + 1, 0, 0, 0, 0, 0);
    assertThat(memory.maxHeapOption()).isEqualTo("-Xmx" + (101 + (CrawlMemory.REST_OF_HEAP >> 20)) + "m");
  }

  /** bin/crawler's heap must pass the crawl's own start-up check, or the crawl would refuse to start. */
  @ParameterizedTest
  @ValueSource(strings = {"{}", "seen: {expected-urls: 1e9}", "seen: {expected-urls: 1000, recent-memory: 1MB}",
      "seen: {memory-budget: 2GB}", "frontier: {known-hosts: 5_000_000, read-ahead: 1GB}",
      "frontier: {read-ahead: 1MB, working-set-hosts: 100}", "seen: {on-capacity: warn, false-positive-rate: 0.001%}"})
  void theHeapItAsksForPassesTheStartUpCheck(String yaml) {
    CrawlConfig config = parse(yaml);
    long heap = CrawlMemory.of(config).heap();
    assertThatCode(() -> CrawlSetup.checkFitsTheHeap(CrawlSetup.seen(config, Path.of("/seen")),
        CrawlSetup.frontier(config), heap)).doesNotThrowAnyException();
  }
}
