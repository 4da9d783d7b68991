package dev.crawler.bench.dedup;

import com.google.common.hash.Funnels;
import dev.crawler.dedup.BloomFilter;
import dev.crawler.dedup.BloomFilterSizing;
import dev.crawler.dedup.internal.Murmur3;
import java.util.stream.LongStream;

/**
 * The table of bits per key against measured false-positive rate, ours (both layouts)
 * beside Guava's, at n keys for each target rate. Keys 0..n-1 are members; n more keys
 * (negative numbers) are asked. Rows marked {@code =g} are ours held to Guava's exact bytes.
 * Run:
 * <pre>
 *   java -Xmx8g -cp bench/target/benchmarks.jar dev.crawler.bench.dedup.FalsePositiveRates 10000000
 * </pre>
 */
public final class FalsePositiveRates {
  public static void main(String[] args) {
    long n = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    long queries = args.length > 1 ? Long.parseLong(args[1]) : n;
    System.out.printf("n = %,d keys, %,d non-member queries%n", n, queries);
    System.out.printf("%-8s %-11s %12s %3s %14s %14s %14s%n", "target", "filter", "bits/key", "k", "formula",
        "measured", "memory");
    for (double p : new double[] {0.1, 0.01, 0.001, 0.0001}) {
      double standardBits = BloomFilterSizing.standardBitsPerKey(p);
      for (BloomFilter.Layout layout : BloomFilter.Layout.values()) {
        report(p, layout.name().toLowerCase(), BloomFilter.create(n, p, layout), n, queries);
      }
      // Ours again, held to exactly Guava's bytes: what a blocked layout's rate is at "no more
      // memory than Guava", to set beside its rate.
      for (BloomFilter.Layout layout : BloomFilter.Layout.values()) {
        report(p, layout.name().toLowerCase() + "=g", BloomFilter.createWithMemory(n, guavaBytes(n, p), layout), n,
            queries);
      }
      com.google.common.hash.BloomFilter<Long> guava =
          com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), n, p);
      LongStream.range(0, n).parallel().forEach(guava::put);
      long hits = LongStream.range(0, queries).parallel().filter(k -> guava.mightContain(-1 - k)).count();
      int k = (int) Math.max(1, Math.round(standardBits * Math.log(2)));
      System.out.printf("%-8s %-11s %12.2f %3d %13.4f%% %13.4f%% %11d MB%n", pct(p), "guava", standardBits, k,
          100 * BloomFilterSizing.standardRate(standardBits, k), 100.0 * hits / queries, guavaBytes(n, p) >> 20);
    }
  }

  private static void report(double p, String name, BloomFilter ours, long n, long queries) {
    LongStream.range(0, n).parallel().forEach(k -> ours.put(h1(k), h2(k)));
    long hits = LongStream.range(0, queries).parallel().filter(k -> ours.mightContain(h1(-1 - k), h2(-1 - k)))
        .count();
    System.out.printf("%-8s %-11s %12.2f %3d %13.4f%% %13.4f%% %11d MB%n", pct(p), name,
        (double) ours.bitSize() / n, ours.hashes(), 100 * BloomFilterSizing.blockedRate(
            (double) ours.bitSize() / n, ours.hashes(), ours.layout().blockBits()),
        100.0 * hits / queries, ours.byteSize() >> 20);
  }

  /** The bytes of Guava's bit array for n keys at rate p: its bit count rounded up to whole longs. */
  private static long guavaBytes(long n, double p) {
    long bits = (long) (-n * Math.log(p) / (Math.log(2) * Math.log(2)));
    return (bits + 63) / 64 * 8;
  }

  private static long h1(long key) {
    return Murmur3.fmix64(key);
  }

  private static long h2(long key) {
    return Murmur3.fmix64(key ^ 0x5bd1e9955bd1e995L);
  }

  private static String pct(double p) {
    return (p * 100) + "%";
  }
}
