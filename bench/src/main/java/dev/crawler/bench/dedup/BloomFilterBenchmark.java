package dev.crawler.bench.dedup;

import com.google.common.hash.Funnels;
import dev.crawler.dedup.BloomFilter;
import dev.crawler.dedup.UrlFingerprint;
import dev.crawler.dedup.internal.Murmur3;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Our Bloom filter against Guava's at the same capacity and target rate, filled to
 * capacity before measuring. Keys are longs; each operation includes hashing its key
 * (Guava: murmur3_128 of 8 bytes through its funnel; ours: two 64-bit mixes), so the
 * difference is in the memory access. Filling a filter of 10^9 keys takes minutes, so
 * filled filters are kept for the JVM's life: run the 10^9 case in one JVM ({@code -f 0})
 * and each filter is filled once for all three benchmarks. Run:
 * <pre>
 *   java -jar bench/target/benchmarks.jar BloomFilterBenchmark -p capacity=10000000 -t 1
 *   java -Xmx8g -XX:+AlwaysPreTouch -jar bench/target/benchmarks.jar BloomFilterBenchmark -p capacity=1000000000 -f 0 -t 1
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms6g", "-Xmx6g", "-XX:+AlwaysPreTouch"})
public class BloomFilterBenchmark {

  @Param({"10000000", "1000000000"})
  public long capacity;

  @Param({"cache-line", "page", "guava"})
  public String filter;

  @Param({"0.01"})
  public double fpp;

  private KeyFilter keys;

  /** One filter behind two calls, so the benchmark methods are the same for each. */
  interface KeyFilter {
    boolean put(long key);

    boolean mightContain(long key);

    /** A batch of keys, as the URL-seen service sends a page's links; Guava has no batch call, so one by one. */
    default int putAll(long[] keys) {
      int changed = 0;
      for (long key : keys) {
        changed += put(key) ? 1 : 0;
      }
      return changed;
    }

    default int mightContainAll(long[] keys) {
      int found = 0;
      for (long key : keys) {
        found += mightContain(key) ? 1 : 0;
      }
      return found;
    }
  }

  /** Keys per batch in the batch benchmarks: about a page's links. */
  static final int BATCH = 64;

  @State(Scope.Thread)
  public static class Batch {
    final long[] keys = new long[BATCH];
  }

  /** Filled filters by (capacity, filter, fpp), reused by later trials in the same JVM. */
  private static final java.util.Map<String, KeyFilter> FILLED = new java.util.concurrent.ConcurrentHashMap<>();

  @Setup(Level.Trial)
  public void fill() {
    String id = capacity + "/" + filter + "/" + fpp;
    keys = FILLED.get(id);
    if (keys != null) {
      return;
    }
    // JMH runs each method for every filter in turn, so all filled filters stay: at
    // 10^9 keys, about 1.2 GB each (give the JVM -Xmx8g).
    keys = newFilter();
    // Members are 0 .. capacity-1; both filters are thread-safe, so fill in parallel.
    LongStream.range(0, capacity).parallel().forEach(keys::put);
    FILLED.put(id, keys);
  }

  private KeyFilter newFilter() {
    return switch (filter) {
      case "guava" -> {
        com.google.common.hash.BloomFilter<Long> guava =
            com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), capacity, fpp);
        yield new KeyFilter() {
          public boolean put(long key) {
            return guava.put(key);
          }

          public boolean mightContain(long key) {
            return guava.mightContain(key);
          }
        };
      }
      default -> {
        BloomFilter ours = BloomFilter.create(capacity, fpp,
            filter.equals("page") ? BloomFilter.Layout.PAGE : BloomFilter.Layout.CACHE_LINE);
        yield new KeyFilter() {
          public boolean put(long key) {
            return ours.put(Murmur3.fmix64(key), Murmur3.fmix64(key ^ 0x5bd1e9955bd1e995L));
          }

          public boolean mightContain(long key) {
            return ours.mightContain(Murmur3.fmix64(key), Murmur3.fmix64(key ^ 0x5bd1e9955bd1e995L));
          }

          public int putAll(long[] keys) {
            return count(ours.putAll(fingerprints(keys)));
          }

          public int mightContainAll(long[] keys) {
            return count(ours.mightContainAll(fingerprints(keys)));
          }
        };
      }
    };
  }

  private static java.util.List<UrlFingerprint> fingerprints(long[] keys) {
    java.util.List<UrlFingerprint> list = new java.util.ArrayList<>(keys.length);
    for (long key : keys) {
      list.add(new UrlFingerprint(Murmur3.fmix64(key), Murmur3.fmix64(key ^ 0x5bd1e9955bd1e995L)));
    }
    return list;
  }

  private static int count(boolean[] answers) {
    int n = 0;
    for (boolean answer : answers) {
      n += answer ? 1 : 0;
    }
    return n;
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int putNewBatch(Batch batch) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int i = 0; i < BATCH; i++) {
      batch.keys[i] = -1 - random.nextLong(Long.MAX_VALUE);
    }
    return keys.putAll(batch.keys);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int containsMemberBatch(Batch batch) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int i = 0; i < BATCH; i++) {
      batch.keys[i] = random.nextLong(capacity);
    }
    return keys.mightContainAll(batch.keys);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int containsNonMemberBatch(Batch batch) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int i = 0; i < BATCH; i++) {
      batch.keys[i] = -1 - random.nextLong(Long.MAX_VALUE);
    }
    return keys.mightContainAll(batch.keys);
  }

  /** Adding keys never added before (negative numbers: disjoint from the members). */
  @Benchmark
  public boolean putNew() {
    return keys.put(-1 - ThreadLocalRandom.current().nextLong(Long.MAX_VALUE));
  }

  @Benchmark
  public boolean containsMember() {
    return keys.mightContain(ThreadLocalRandom.current().nextLong(capacity));
  }

  @Benchmark
  public boolean containsNonMember() {
    return keys.mightContain(-1 - ThreadLocalRandom.current().nextLong(Long.MAX_VALUE));
  }
}
