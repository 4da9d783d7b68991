package dev.crawler.bench.dedup;

import com.google.common.hash.Funnels;
import dev.crawler.dedup.BloomFilter;
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
 * and each filter is filled once for all three benchmarks. Run (see dedup/README.md):
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
        };
      }
    };
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
