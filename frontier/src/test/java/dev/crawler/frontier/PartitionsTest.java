package dev.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.frontier.internal.FrontierStore;
import dev.crawler.frontier.internal.HostKeys;
import dev.crawler.frontier.internal.HostState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The crawl's one partition function, and the frontier keeping its state by it. */
class PartitionsTest {
  @TempDir Path dir;

  /** Stores on disk hold these: the same keys and figures as the stored layout's own pin. */
  @ParameterizedTest
  @CsvSource({
      "example.com, 819, 4",
      "a.com, 220, 2",
      "xn--bcher-kva.de, 511, 5",
      "192.0.2.7, 290, 0",
  })
  void partitionOfAQueueKeyIsPinned(String key, int of1024, int of7) {
    assertThat(Partitions.of(key, 1024)).isEqualTo(of1024);
    assertThat(Partitions.of(key, 7)).isEqualTo(of7);
    assertThat(Partitions.of(key, 1)).isZero();
  }

  @Test
  void everyPartitionIsInRangeAndEachIsUsed() {
    int partitions = 64;
    int[] counts = new int[partitions];
    SplittableRandom random = new SplittableRandom(21);
    for (int i = 0; i < 64_000; i++) {
      int p = Partitions.of(randomHost(random), partitions);
      assertThat(p).isBetween(0, partitions - 1);
      counts[p]++;
    }
    // 1,000 expected each; a partition with fewer than half or more than twice would mean a skewed hash.
    assertThat(java.util.Arrays.stream(counts).min().getAsInt()).isGreaterThan(500);
    assertThat(java.util.Arrays.stream(counts).max().getAsInt()).isLessThan(2000);
  }

  @Test
  void aBadPartitionCountOrKeyNamesTheValue() {
    assertThatThrownBy(() -> Partitions.of("a.com", 0)).hasMessageContaining("partitions (0) must be in [1, 65536]");
    assertThatThrownBy(() -> Partitions.of("a.com", Partitions.MAX + 1)).hasMessageContaining("(65537)");
    assertThatThrownBy(() -> Partitions.of("", 8)).hasMessageContaining("host key must not be empty");
  }

  /**
   * Each host's state is stored under the partition this function gives, in that partition's
   * group database: a node that owns partition p by this function finds p's hosts on its disk.
   */
  @Test
  void theFrontierStoresEachHostUnderItsPartition() throws Exception {
    int partitions = 64;
    List<String> hosts = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 500; i++) {
      hosts.add(randomHost(random));
    }
    FrontierOptions options = FrontierOptions.builder().defaultDelay(Duration.ZERO).partitions(partitions).build();
    try (Frontier f = Frontier.open(dir, options)) {
      for (String host : hosts) {
        f.offer(List.of(FrontierEntry.of("https://" + host + "/", host, 0)));
      }
    }
    int groups = Math.min(partitions, Frontier.MAX_GROUPS);
    try (FrontierStore root = FrontierStore.open(dir, false, 8 << 20, 8 << 20, partitions, groups)) {
      List<FrontierStore> groupStores = root.openGroups(partitions);
      try {
        for (String host : hosts) {
          int p = Partitions.of(host, partitions);
          byte[] utf8 = HostKeys.utf8(host);
          FrontierStore own = groupStores.get(p % groups);
          assertThat(own.get(own.hosts, HostState.key(p, utf8))).as("%s in partition %s", host, p).isNotNull();
          int other = (p + 1) % partitions;
          FrontierStore otherGroup = groupStores.get(other % groups);
          assertThat(otherGroup.get(otherGroup.hosts, HostState.key(other, utf8))).as("%s in partition %s", host, other)
              .isNull();
        }
      } finally {
        for (int g = groupStores.size() - 1; g >= 0; g--) {
          groupStores.get(g).close();
        }
      }
    }
  }

  static String randomHost(SplittableRandom random) {
    StringBuilder b = new StringBuilder();
    int labels = 1 + random.nextInt(3);
    for (int l = 0; l < labels; l++) {
      int n = 1 + random.nextInt(12);
      for (int i = 0; i < n; i++) {
        b.append((char) ('a' + random.nextInt(26)));
      }
      b.append('.');
    }
    return b.append(random.nextBoolean() ? "com" : "org").toString();
  }
}
