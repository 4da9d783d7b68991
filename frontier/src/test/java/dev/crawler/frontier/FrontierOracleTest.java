package dev.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded random offers, leases, completions, settings, clock moves and reopens, each checked
 * against an in-memory model of what the frontier must do. Stops after a fixed number of
 * operations. The back-off has no jitter here (initial 0) so every time is predictable.
 * Every lease, before and after reopens, must carry the via and redirect hops its URL was
 * offered with (a via over the cap cut at a character boundary).
 */
class FrontierOracleTest {
  static final int OPERATIONS = 2_500;
  static final String[] HOSTS = {"a.com", "b.org", "c.net", "d.com", "e.io", "f.de", "g.fr", "h.uk", "i.jp"};

  @TempDir Path dir;

  /**
   * Seeds 1 to 3 remember at most 2 hosts; seeds 4 and up remember every host, so hosts leave the
   * working set keeping their read-ahead, within a budget of a few URLs' bytes so some drop theirs.
   * Seeds 6 to 8 spread the hosts over 4 partitions, each its own group with its own lock and
   * schedule: the earliest host goes first within its group, not across groups. Seeds 5 and 8
   * leave up to 3 completions a group unwritten, for a later write (or a read) to take along.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
  void randomOperationsMatchTheModel(long seed) throws Exception {
    // 24 partitions: 16 groups, and two of them serve two partitions of these hosts each.
    int partitions = seed > 8 ? 24 : seed > 5 ? 4 : 1;
    assertThat(Arrays.stream(HOSTS).map(h -> FrontierModelRun.group(h, partitions)).distinct().count())
        .as("groups the hosts fall in").isEqualTo(partitions == 1 ? 1 : partitions == 4 ? 4 : 5);
    Random random = new Random(seed);
    int workingSet = 1 + random.nextInt(4);
    int knownHosts = random.nextInt(3);
    long readAhead = FrontierOptions.builder().build().readAheadBytes();
    if (seed > 3) {
      knownHosts = HOSTS.length;
      readAhead = 2_000;
    }
    int deferred = seed == 5 || seed == 8 ? 3 : 0;
    FrontierModelRun.run(new FrontierModelRun.Setup(HOSTS, partitions, workingSet, knownHosts, readAhead, 100,
        deferred, OPERATIONS), random, dir);
  }
}
