package dev.crawler.bench.dedup;

import com.google.common.hash.Hashing;
import dev.crawler.dedup.UrlFingerprint;
import dev.crawler.dedup.internal.Murmur3;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import net.openhft.hashing.LongHashFunction;
import net.openhft.hashing.LongTupleHashFunction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Which 128-bit hash to fingerprint URLs with: ours (MurmurHash3 over the chars, no
 * allocation), Guava's murmur3_128 over the chars and over UTF-8 bytes, and OpenHFT's
 * xxHash128 and two xxHash3 64-bit runs, over a mix of URL lengths. Run:
 * <pre>
 *   java -jar bench/target/benchmarks.jar UrlHashBenchmark -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class UrlHashBenchmark {
  private static final LongTupleHashFunction XX128 = LongTupleHashFunction.xx128();
  private static final LongHashFunction XX3_A = LongHashFunction.xx3(1);
  private static final LongHashFunction XX3_B = LongHashFunction.xx3(2);

  private String[] urls;
  private final long[] result = new long[2];
  private int next;

  @Setup
  public void urls() {
    urls = new String[1024];
    for (int i = 0; i < urls.length; i++) {
      // 40 to 160 characters, as real links run.
      urls[i] = "https://www.site" + i + ".example.com/" + "section/".repeat(1 + i % 12) + "page-" + i + ".html";
    }
  }

  private String url() {
    return urls[next++ & 1023];
  }

  @Benchmark
  public UrlFingerprint oursMurmur3Chars() {
    return Murmur3.hash128(url());
  }

  @Benchmark
  public long guavaMurmur3Chars() {
    return Hashing.murmur3_128().hashUnencodedChars(url()).asLong();
  }

  @Benchmark
  public long guavaMurmur3Utf8() {
    return Hashing.murmur3_128().hashString(url(), StandardCharsets.UTF_8).asLong();
  }

  @Benchmark
  public long[] openhftXx128Chars() {
    XX128.hashChars(url(), result);
    return result;
  }

  @Benchmark
  public long openhftTwoXx3Chars() {
    String url = url();
    return XX3_A.hashChars(url) ^ XX3_B.hashChars(url);
  }
}
