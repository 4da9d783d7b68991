package dev.crawler.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.dedup.BloomFilter.Layout;
import dev.crawler.dedup.internal.FilterFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class BloomFilterTest {
  @TempDir Path dir;

  /** Random 128-bit keys stand for fingerprints: the hash is tested on its own. */
  private static UrlFingerprint key(SplittableRandom random) {
    return new UrlFingerprint(random.nextLong(), random.nextLong());
  }

  @ParameterizedTest(name = "{0} at p = {1}")
  @CsvSource({"CACHE_LINE, 0.01", "CACHE_LINE, 0.001", "PAGE, 0.01", "CACHE_LINE, 0.1"})
  void measuredRateAtCapacityMeetsTheTarget(Layout layout, double p) {
    int n = 1_000_000;
    BloomFilter filter = BloomFilter.create(n, p, layout);
    SplittableRandom random = new SplittableRandom(2026);
    for (int i = 0; i < n; i++) {
      filter.put(key(random));
    }
    int queries = 1_000_000;
    int falsePositives = 0;
    for (int i = 0; i < queries; i++) {
      if (filter.mightContain(key(random))) {
        falsePositives++;
      }
    }
    double measured = (double) falsePositives / queries;
    // Three standard deviations of a binomial count: the sizing aims at p exactly.
    double tolerance = 3 * Math.sqrt(p * (1 - p) / queries);
    assertThat(measured).as("measured rate of %s", filter).isLessThanOrEqualTo(p + tolerance);
    // And the estimate from the insertions agrees with what was measured.
    assertThat(filter.estimatedRate()).isBetween(measured - 2 * tolerance, measured + 2 * tolerance);
    assertThat(filter.estimatedKeys()).isCloseTo(n, org.assertj.core.api.Assertions.within(n * 0.02));
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void everyKeyPutIsFoundEvenWhenManyThreadsPutAtOnce(Layout layout) throws Exception {
    BloomFilter filter = BloomFilter.create(400_000, 0.01, layout);
    int threads = 4;
    int perThread = 100_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      // Overlapping seeds: threads 0 and 1 put the same keys, one key at a time against a batch at
      // a time; threads 2 and 3 both in batches (putAll's one-pass path), so a bit a batch put
      // loses is not set by a single put of the same key.
      long seed = t / 2;
      boolean batches = t != 0;
      done.add(pool.submit(() -> {
        start.await();
        SplittableRandom random = new SplittableRandom(seed);
        List<UrlFingerprint> batch = new ArrayList<>();
        for (int i = 0; i < perThread; i++) {
          if (!batches) {
            filter.put(key(random));
            continue;
          }
          batch.add(key(random));
          if (batch.size() == 64 || i == perThread - 1) {
            filter.putAll(batch);
            batch = new ArrayList<>();
          }
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    for (long seed = 0; seed < threads / 2; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      for (int i = 0; i < perThread; i++) {
        assertThat(filter.mightContain(key(random))).isTrue();
      }
    }
    // Two threads racing on one new key may both count it (how often depends on timing), so
    // the count lies between the distinct keys (less the few that collided entirely) and
    // twice them; the estimate from the fill does not depend on the race.
    assertThat(filter.insertions()).isBetween(2L * perThread * 98 / 100, 4L * perThread);
    assertThat(filter.estimatedKeys()).isCloseTo(2.0 * perThread, org.assertj.core.api.Assertions.within(2.0 * perThread * 0.02));
    assertThat(Math.round(filter.fillRatio() * filter.bitSize())).as("each bit counted by the one thread that set it")
        .isEqualTo(filter.countSetBits());
  }

  /** At 10^-6 a cache-line key has more than 7 bits, so its positions come from a remixed hash too. */
  @ParameterizedTest(name = "{0} at {1}")
  @CsvSource({"CACHE_LINE, 0.05", "CACHE_LINE, 0.000001", "PAGE, 0.05"})
  void batchesAnswerAsSingleCallsDo(Layout layout, double rate) {
    BloomFilter batched = BloomFilter.create(20_000, rate, layout);
    BloomFilter single = BloomFilter.create(20_000, rate, layout);
    SplittableRandom random = new SplittableRandom(11);
    List<UrlFingerprint> previous = List.of();
    for (int round = 0; round < 400; round++) {
      List<UrlFingerprint> batch = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        // A quarter of the keys again from the batch before, the rest new: both answers occur.
        // Every 16th repeats the key before it in the same batch: put answers true for the first
        // and false for the second.
        batch.add(i % 16 == 15 ? batch.get(i - 1) : i % 4 == 0 && round > 0 ? previous.get(i) : key(random));
      }
      previous = batch;
      boolean[] contains = batched.mightContainAll(batch);
      boolean[] put = batched.putAll(batch);
      for (int i = 0; i < batch.size(); i++) {
        assertThat(contains[i]).isEqualTo(single.mightContain(batch.get(i)));
      }
      for (int i = 0; i < batch.size(); i++) {
        assertThat(put[i]).isEqualTo(single.put(batch.get(i)));
      }
    }
    assertThat(batched.insertions()).isEqualTo(single.insertions());
    assertThat(batched.fillRatio()).as("bits counted once a batch, as one at a time").isEqualTo(single.fillRatio());
  }

  /** The counter behind the fill and the rate estimate counts each bit once, one key at a time or a batch at a time. */
  @ParameterizedTest(name = "{0} at {1}")
  @CsvSource({"CACHE_LINE, 0.01", "CACHE_LINE, 0.0001", "CACHE_LINE, 1e-9",
      "PAGE, 0.01", "PAGE, 0.0001"})
  void theFillCountsEveryBitSetExactlyOnce(Layout layout, double rate) {
    BloomFilter filter = BloomFilter.create(5_000, rate, layout);
    SplittableRandom random = new SplittableRandom(23);
    for (int round = 0; round < 100; round++) {
      List<UrlFingerprint> batch = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        batch.add(key(random));
      }
      if (round % 2 == 0) {
        filter.putAll(batch);
      } else {
        batch.forEach(filter::put);
      }
      filter.putAll(batch.subList(0, 8));   // again: sets nothing
    }
    assertThat(Math.round(filter.fillRatio() * filter.bitSize())).isEqualTo(filter.countSetBits());
    assertThat(filter.insertions()).isBetween(6_000L, 6_400L);
  }

  @Test
  void putReportsWhetherItSetABit() {
    BloomFilter filter = BloomFilter.create(1_000, 0.01, Layout.CACHE_LINE);
    UrlFingerprint k = UrlFingerprint.of("https://example.org/");
    assertThat(filter.mightContain(k)).isFalse();
    assertThat(filter.put(k)).isTrue();
    assertThat(filter.put(k)).isFalse();
    assertThat(filter.mightContain(k)).isTrue();
    assertThat(filter.insertions()).isEqualTo(1);
    assertThat(filter.fillRatio() * filter.bitSize()).isBetween(1.0, (double) filter.hashes());
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aFilterWrittenAndReadBackAnswersTheSame(Layout layout) throws IOException {
    BloomFilter filter = BloomFilter.create(50_000, 0.01, layout);
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 50_000; i++) {
      filter.put(key(random));
    }
    Path file = dir.resolve("seen.bloom");
    filter.writeTo(file);
    BloomFilter loaded = BloomFilter.readFrom(file);
    assertThat(loaded.toString()).isEqualTo(filter.toString());
    SplittableRandom again = new SplittableRandom(7);
    for (int i = 0; i < 50_000; i++) {
      assertThat(loaded.mightContain(key(again))).isTrue();
    }
    SplittableRandom others = new SplittableRandom(8);
    for (int i = 0; i < 50_000; i++) {
      UrlFingerprint k = key(others);
      assertThat(loaded.mightContain(k)).isEqualTo(filter.mightContain(k));
    }
    assertThat(Files.exists(dir.resolve("seen.bloom.tmp"))).isFalse();
  }

  @Test
  void aDamagedFileIsRefusedWithAReason() throws IOException {
    BloomFilter filter = BloomFilter.create(10_000, 0.01, Layout.CACHE_LINE);
    filter.put(UrlFingerprint.of("https://example.org/"));
    Path good = dir.resolve("good.bloom");
    filter.writeTo(good);
    byte[] bytes = Files.readAllBytes(good);

    assertRefused(flip(bytes, 100), "its bit array checksum does not match");
    assertRefused(flip(bytes, 20), "its header checksum does not match");
    assertRefused(flip(bytes, 0), "it is not a Bloom filter file (bad magic)");
    assertRefused(java.util.Arrays.copyOf(bytes, bytes.length - 1), "bytes where its header says");
    assertRefused(java.util.Arrays.copyOf(bytes, 30), "fewer than a header");
    byte[] otherVersion = bytes.clone();
    otherVersion[8] = 9;
    fixHeaderChecksum(otherVersion);
    assertRefused(otherVersion, "format version 9 is not 1");
  }

  @Test
  void theFileHeaderLayoutIsPinned() throws IOException {
    // If this fails, the file format changed: bump FilterFile.FORMAT_VERSION and keep reading old files.
    BloomFilter filter = BloomFilter.create(1_000, 0.01, Layout.CACHE_LINE);
    filter.put(new UrlFingerprint(0, 0));
    Path file = dir.resolve("pinned.bloom");
    filter.writeTo(file);
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(new String(b.array(), 0, 7, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("CRAWLBF");
    assertThat(b.get(8)).isEqualTo((byte) 1);                 // format version
    assertThat(b.get(9)).isEqualTo((byte) 1);                 // layout: cache line
    assertThat(b.get(10)).isEqualTo((byte) 1);                // hash: murmur3 x64-128 UTF-16
    assertThat(b.get(11)).isEqualTo((byte) filter.hashes());
    assertThat(b.getLong(12)).isEqualTo(filter.bitSize() / 512);
    assertThat(b.getLong(20)).isEqualTo(1);                   // insertions
    assertThat(b.getLong(36)).isEqualTo(1_000);               // expected insertions
    assertThat(b.getDouble(44)).isEqualTo(0.01);
    assertThat(b.capacity()).isEqualTo(56 + filter.byteSize() + 4);
    // Key (0, 0) lands in block 0 at bit 0 (positions come from the low half, all zero).
    assertThat(b.getLong(56)).isEqualTo(1L);
  }

  @Test
  void layoutIdsAreStable() {
    // Stored in filter files: an id may never change meaning.
    assertThat(Layout.CACHE_LINE.id()).isEqualTo(1);
    assertThat(Layout.PAGE.id()).isEqualTo(2);
    assertThat(Layout.values()).containsExactly(Layout.CACHE_LINE, Layout.PAGE);
    assertThat(Layout.CACHE_LINE.blockBits()).isEqualTo(512);
    assertThat(Layout.PAGE.blockBits()).isEqualTo(32768);
  }

  /**
   * A filter of 2.5 × 10^9 bits (300 MB), past the 2^31 bits an int could index: keys land in
   * the bits past 2^31 in their share (read from the saved file, in bit order), and every key put
   * is found after a reload. A position cut to an int would leave those bits empty.
   */
  @Test
  void aFilterPastTwoBillionBitsFindsEveryKeyAndKeepsItsRateThroughAReload() throws IOException {
    long bytes = 300L << 20;
    int n = 2_000_000;
    BloomFilter filter = BloomFilter.createWithMemory(n * 100L, bytes, Layout.CACHE_LINE);
    assertThat(filter.bitSize()).isGreaterThan(1L << 31);
    SplittableRandom random = new SplittableRandom(31);
    for (int i = 0; i < n; i++) {
      filter.put(key(random));
    }
    Path file = dir.resolve("big.filter");
    filter.writeTo(file);
    double rateBefore = measuredRate(filter, new SplittableRandom(97), 1_000_000);
    long setBits = Math.round(filter.fillRatio() * filter.bitSize());
    double shareBeyond = (double) (filter.bitSize() - (1L << 31)) / filter.bitSize();
    filter = null;   // the reload needs the heap
    long beyond = setBitsFrom(file, FilterFile.HEADER_BYTES + (1L << 31) / 8, Files.size(file) - 4);
    assertThat((double) beyond / setBits).as("share of the set bits past bit 2^31").isCloseTo(shareBeyond,
        org.assertj.core.api.Assertions.within(0.01));
    BloomFilter reloaded = BloomFilter.readFrom(file);
    assertThat(reloaded.bitSize()).isGreaterThan(1L << 31);
    SplittableRandom again = new SplittableRandom(31);
    for (int i = 0; i < n; i++) {
      UrlFingerprint k = key(again);
      if (!reloaded.mightContain(k)) {
        throw new AssertionError("key " + i + " of " + n + " is not found after the reload: " + k);
      }
    }
    assertThat(measuredRate(reloaded, new SplittableRandom(97), 1_000_000)).isEqualTo(rateBefore);
    assertThat(reloaded.estimatedKeys()).isCloseTo(n, org.assertj.core.api.Assertions.within(n * 0.02));
  }

  /** Set bits in bytes [from, to) of a file. */
  private static long setBitsFrom(Path file, long from, long to) throws IOException {
    long count = 0;
    try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file)) {
      ByteBuffer buffer = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
      long position = from;
      while (position < to) {
        buffer.clear().limit((int) Math.min(buffer.capacity(), to - position));
        int read = channel.read(buffer, position);
        buffer.flip();
        while (buffer.remaining() >= 8) {
          count += Long.bitCount(buffer.getLong());
        }
        while (buffer.hasRemaining()) {
          count += Integer.bitCount(buffer.get() & 0xFF);
        }
        position += read;
      }
    }
    return count;
  }

  private static double measuredRate(BloomFilter filter, SplittableRandom random, int queries) {
    int falsePositives = 0;
    for (int i = 0; i < queries; i++) {
      if (filter.mightContain(key(random))) {
        falsePositives++;
      }
    }
    return (double) falsePositives / queries;
  }

  @Test
  void badArgumentsAreNamed() {
    assertThatThrownBy(() -> BloomFilter.create(0, 0.01, Layout.CACHE_LINE))
        .hasMessage("Expected insertions (0) must be > 0");
    assertThatThrownBy(() -> BloomFilter.create(10, 1.5, Layout.CACHE_LINE))
        .hasMessage("False positive probability (1.5) must be > 0.0 and < 1.0");
    assertThatThrownBy(() -> BloomFilter.createWithMemory(10, 10, Layout.CACHE_LINE))
        .hasMessage("Memory budget (10 bytes) must be at least one block (64 bytes)");
  }

  @Test
  void aMemoryBudgetGivesTheRateItCanAfford() {
    BloomFilter filter = BloomFilter.createWithMemory(1_000_000, 1_250_000, Layout.CACHE_LINE);
    assertThat(filter.byteSize()).isLessThanOrEqualTo(1_250_000);
    assertThat(filter.targetRate()).isBetween(0.008, 0.012);   // 10 bits per key: about 1%
  }

  private void assertRefused(byte[] bytes, String reason) throws IOException {
    Path file = dir.resolve("bad.bloom");
    Files.write(file, bytes);
    assertThatThrownBy(() -> BloomFilter.readFrom(file))
        .isInstanceOf(FilterFile.CorruptFilterException.class)
        .hasMessageStartingWith("Bloom filter file " + file + " cannot be used: ")
        .hasMessageContaining(reason);
  }

  private static byte[] flip(byte[] bytes, int index) {
    byte[] copy = bytes.clone();
    copy[index] ^= 0x40;
    return copy;
  }

  private static void fixHeaderChecksum(byte[] bytes) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(bytes, 0, 52);
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(52, (int) crc.getValue());
  }

  /** The crawler checks the heap before it allocates: the planned size must be the allocated one. */
  @ParameterizedTest
  @CsvSource({"1000, 0.01, CACHE_LINE", "1000000, 0.001, CACHE_LINE", "1234567, 0.05, PAGE", "1, 0.5, PAGE"})
  void thePlannedSizeIsTheAllocatedSize(long expected, double fpp, Layout layout) {
    assertThat(BloomFilter.plannedBytes(expected, fpp, layout))
        .isEqualTo(BloomFilter.create(expected, fpp, layout).byteSize());
    assertThat(BloomFilter.plannedBytesWithMemory(1_000_003, layout))
        .isEqualTo(BloomFilter.createWithMemory(expected, 1_000_003, layout).byteSize());
  }
}
