package dev.crawler.frontier;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The oracle test's model pushed to the corners: working sets of 1 to 3 hosts, known-host caches
 * of 0 to 100, read-ahead budgets of 0 to 64 MB, partitions 1, 2, 4, 17 and 33, connection limits
 * changed while leases are out, clearCrawlDelay, DEFERRED, Retry-After of zero and of more millis
 * than a long holds, duplicate URLs, host keys that are prefixes of each other or not ASCII, URLs
 * of 10 KB, and completions of leases already completed or from before a reopen. It found three
 * bugs (a due host left on disk by a refill, a completed lease accepted again, an unpaired
 * surrogate in a host key) and a politeness rule (a Retry-After undone by a concurrent fetch).
 * Every third seed leaves 1 to 5 completions a group unwritten for a later write.
 * Seeds from -Dfuzz.from (1) to -Dfuzz.to (12), -Dfuzz.ops operations each (1,500); -Dfuzz.trace=true
 * prints the operations before a "ready but not served" failure.
 */
class FrontierFuzzTest {
  static final String LONG_HOST = "h".repeat(300) + ".example";
  /** Keys that are prefixes of each other, not ASCII, long, or with a control character. */
  static final String[] HOSTS = {"a.com", "a.com.b", "a.co", "b.org", "bücher.de", "例え.jp", LONG_HOST,
      "a.com\u0001", "𝄞.io", "z"};

  @TempDir Path dir;

  static Stream<Arguments> seeds() {
    return LongStream.rangeClosed(Long.getLong("fuzz.from", 1), Long.getLong("fuzz.to", 12)).mapToObj(Arguments::of);
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void fuzz(long seed) throws Exception {
    Random random = new Random(seed);
    int[] partitionChoices = {1, 1, 2, 4, 17, 33};
    int partitions = partitionChoices[random.nextInt(partitionChoices.length)];
    int workingSet = 1 + random.nextInt(3);
    int[] cacheChoices = {0, 1, 2, HOSTS.length, 100};
    int knownHosts = cacheChoices[random.nextInt(cacheChoices.length)];
    long[] readAheadChoices = {0, 300, 2_000, 64 << 20};
    long readAhead = readAheadChoices[random.nextInt(readAheadChoices.length)];
    String[] hosts = Arrays.copyOf(HOSTS, 2 + random.nextInt(HOSTS.length - 1));
    long defaultDelay = random.nextBoolean() ? 100 : 0;
    // Drawn apart from the operations' random, so a seed's operations stay what they were.
    int deferred = seed % 3 == 0 ? 1 + (int) (seed % 5) : 0;
    FrontierModelRun.run(new FrontierModelRun.Setup(hosts, partitions, workingSet, knownHosts, readAhead, defaultDelay,
        deferred, Integer.getInteger("fuzz.ops", 1_500)), random, dir);
  }
}
