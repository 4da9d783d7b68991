package dev.crawler.bench.dedup;

import dev.crawler.dedup.BloomFilter;
import dev.crawler.dedup.UrlFingerprint;
import dev.crawler.dedup.internal.Murmur3;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * How near the cache-line filter's batch calls come to a bare loop: batches of 64 keys, put and
 * looked up by {@link BloomFilter#putAll} and {@link BloomFilter#mightContainAll}, and by a loop
 * that does only the memory work of a 512-bit block filter (work out every block's place, read
 * each block's two lines, then test or atomically set 7 bits) on an array of the filter's size,
 * half its bits set as in a filter at capacity. The two alternate in one JVM, so a busy host
 * moves both; read the ratio. Keys are fresh random longs drawn alike for both (new keys for
 * put, mostly absent ones for lookups), hashed as {@code BloomFilterBenchmark} hashes them.
 * Drawing and hashing them is timed in both; "keys alone" is that cost by itself, so a ratio near
 * 1 is to be read against it. Each put round adds its keys, so the filter goes past capacity
 * from round to round (the bare array stays at half its bits). Run:
 * <pre>
 *   java -Xmx4g -XX:+AlwaysPreTouch -XX:+UseTransparentHugePages -cp bench/target/benchmarks.jar \
 *     dev.crawler.bench.dedup.BatchFloor 200000000 2
 * </pre>
 * Arguments: capacity (keys the filter is sized and filled to, at 1%), threads, rounds (4).
 */
public final class BatchFloor {
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final int BATCH = 64;
  private static final int PAGE_SHIFT = 24;
  private static final long SEED_MIX = 0x5bd1e9955bd1e995L;

  private final BloomFilter filter;
  private final long[][] bare;
  private final long bareBlocks;
  private volatile long sink;

  private BatchFloor(long capacity) {
    filter = BloomFilter.create(capacity, 0.01, BloomFilter.Layout.CACHE_LINE);
    long words = filter.bitSize() / 64;
    bare = new long[(int) ((words + (1 << PAGE_SHIFT) - 1) >>> PAGE_SHIFT)][];
    for (int i = 0; i < bare.length; i++) {
      bare[i] = new long[(int) Math.min(1 << PAGE_SHIFT, words - ((long) i << PAGE_SHIFT))];
    }
    SplittableRandom random = new SplittableRandom(7);
    for (long[] page : bare) {
      for (int i = 0; i < page.length; i++) {
        page[i] = random.nextLong();   // each bit set with probability 1/2
      }
    }
    bareBlocks = words / 8;   // the filter's own block count
  }

  public static void main(String[] args) throws InterruptedException {
    long capacity = Long.parseLong(args[0]);
    int threads = Integer.parseInt(args[1]);
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    BatchFloor floor = new BatchFloor(capacity);
    long start = System.nanoTime();
    floor.fill(capacity);
    System.out.printf(Locale.ROOT, "filled %,d keys in %.1f s: %s%n", capacity, (System.nanoTime() - start) / 1e9,
        floor.filter);
    for (int round = 1; round <= rounds; round++) {
      double barePut = floor.run(threads, Loop.BARE, true);
      double filterPut = floor.run(threads, Loop.FILTER, true);
      double bareGet = floor.run(threads, Loop.BARE, false);
      double filterGet = floor.run(threads, Loop.FILTER, false);
      double keysAlone = floor.run(threads, Loop.KEYS_ALONE, false);
      System.out.printf(Locale.ROOT, "round %d, %d threads: put %.2f M/s (bare %.2f, %.2f of it); "
          + "lookup %.2f M/s (bare %.2f, %.2f of it); keys alone %.2f M/s%n", round, threads, filterPut / 1e6,
          barePut / 1e6, filterPut / barePut, filterGet / 1e6, bareGet / 1e6, filterGet / bareGet, keysAlone / 1e6);
    }
  }

  private void fill(long capacity) throws InterruptedException {
    int threads = 2;
    Thread[] fillers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int first = t;
      fillers[t] = new Thread(() -> {
        List<UrlFingerprint> batch = new ArrayList<>(BATCH);
        for (long key = first; key < capacity; key += threads) {
          batch.add(fingerprint(key));
          if (batch.size() == BATCH) {
            filter.putAll(batch);
            batch.clear();
          }
        }
        filter.putAll(batch);
      });
      fillers[t].start();
    }
    for (Thread filler : fillers) {
      filler.join();
    }
  }

  /** What a run does with each batch of keys it draws. */
  private enum Loop { FILTER, BARE, KEYS_ALONE }

  /** Keys a second over 3 seconds, {@code threads} threads each putting (or looking up) batches of new keys. */
  private double run(int threads, Loop loop, boolean put) throws InterruptedException {
    LongAdder keys = new LongAdder();
    long start = System.nanoTime();
    long end = start + 3_000_000_000L;
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      SplittableRandom random = new SplittableRandom(start + t);
      workers[t] = new Thread(() -> {
        long done = 0;
        long sum = 0;
        long[] blockWords = new long[BATCH];
        long[] lows = new long[BATCH];
        while (System.nanoTime() < end) {
          for (int rep = 0; rep < 64; rep++) {
            List<UrlFingerprint> batch = new ArrayList<>(BATCH);
            for (int i = 0; i < BATCH; i++) {
              batch.add(fingerprint(-1 - random.nextLong(Long.MAX_VALUE)));   // never one of the members
            }
            if (loop == Loop.KEYS_ALONE) {
              sum += batch.get(BATCH - 1).low();
              continue;
            }
            if (loop == Loop.FILTER) {
              sum += put ? filter.putAll(batch).length : filter.mightContainAll(batch).length;
              continue;
            }
            for (int i = 0; i < BATCH; i++) {
              blockWords[i] = Math.unsignedMultiplyHigh(batch.get(i).high(), bareBlocks) * 8;
              lows[i] = batch.get(i).low();
            }
            sum += bare(blockWords, lows, put);
          }
          done += 64 * BATCH;
        }
        keys.add(done);
        if (sum == 42) {
          sink = sum;
        }
      });
      workers[t].start();
    }
    for (Thread worker : workers) {
      worker.join();
    }
    return keys.sum() / ((System.nanoTime() - start) / 1e9);
  }

  /** The memory work of a batch and nothing else: read every block, then test or set its 7 bits. */
  private long bare(long[] blockWords, long[] lows, boolean put) {
    long sum = 0;
    for (int i = 0; i < BATCH; i++) {
      long word = blockWords[i];
      long[] page = bare[(int) (word >>> PAGE_SHIFT)];
      int offset = (int) (word & ((1 << PAGE_SHIFT) - 1));
      sum += (long) LONGS.getOpaque(page, offset) + (long) LONGS.getOpaque(page, offset + 7);
    }
    for (int i = 0; i < BATCH; i++) {
      long word = blockWords[i];
      long[] page = bare[(int) (word >>> PAGE_SHIFT)];
      int offset = (int) (word & ((1 << PAGE_SHIFT) - 1));
      for (int k = 0; k < 7; k++) {
        int position = (int) (lows[i] >>> (k * 9)) & 511;
        int index = offset + (position >>> 6);
        long mask = 1L << position;
        long current = (long) LONGS.getOpaque(page, index);
        if ((current & mask) == 0) {
          if (!put) {
            break;
          }
          sum += (long) LONGS.getAndBitwiseOr(page, index, mask) & 1;
        }
      }
    }
    return sum;
  }

  private static UrlFingerprint fingerprint(long key) {
    return new UrlFingerprint(Murmur3.fmix64(key), Murmur3.fmix64(key ^ SEED_MIX));
  }
}
