package dev.crawler.bench;

import java.util.SplittableRandom;

/**
 * What one random read of a large array costs, when each read waits
 * for the one before (latency: a single lookup) and when the reads are independent (the
 * CPU overlaps their misses: a batch). Bloom filters of billions of keys live between
 * these two figures. Run:
 * <pre>
 *   java -Xmx3g -cp bench/target/benchmarks.jar dev.crawler.bench.MemoryLatency
 * </pre>
 */
public final class MemoryLatency {
  public static void main(String[] args) {
    int pages = 10;   // 10 pages of 2^24 longs: 1.28 GB
    long[][] memory = new long[pages][1 << 24];
    for (long[] page : memory) {
      java.util.Arrays.fill(page, 1);
    }
    long words = (long) pages << 24;
    SplittableRandom random = new SplittableRandom(1);
    int reads = 5_000_000;
    long[] indexes = new long[reads];
    for (int i = 0; i < reads; i++) {
      indexes[i] = random.nextLong(words);
    }
    for (int round = 0; round < 3; round++) {
      long t0 = System.nanoTime();
      long independent = 0;
      for (int i = 0; i < reads; i++) {
        long j = indexes[i];
        independent += memory[(int) (j >>> 24)][(int) (j & 0xFFFFFF)];
      }
      long t1 = System.nanoTime();
      long dependent = 0;
      int chained = reads / 5;
      for (int i = 0; i < chained; i++) {
        // The next address depends on the value just read, so no two reads overlap.
        long j = Math.floorMod(indexes[i] ^ dependent, words);
        dependent += memory[(int) (j >>> 24)][(int) (j & 0xFFFFFF)];
      }
      long t2 = System.nanoTime();
      System.out.printf("random reads of 1.28 GB: independent %.1f ns each, dependent %.1f ns each (%d, %d)%n",
          (t1 - t0) / (double) reads, (t2 - t1) / (double) chained, independent, dependent);
    }
  }
}
