package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** On made-up nanos: the class is told the time, it never reads a clock. */
class RecentEndsTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long T0 = 1_000_000 * MS;

  @Test
  void aHostOwesWhatIsLeftOfItsDelaySinceItsLastEnd() {
    RecentEnds ends = new RecentEnds(2_000);
    ends.ended("slow.com", T0, 0);
    ends.ended("quick.com", T0, 0);
    ends.ended("slow.com", T0 + 300 * MS, 0);   // its latest end counts
    Map<String, Long> owed = ends.owed(T0 + 500 * MS, host -> host.equals("slow.com") ? 1_000 : 100);
    assertThat(owed).as("800 ms left of slow's second, plus a clock tick; quick's 100 ms are over")
        .isEqualTo(Map.of("slow.com", 801L));
  }

  @Test
  void aRetryAfterHoldsBeyondTheDelayAndIsNotShortenedByALaterEnd() {
    RecentEnds ends = new RecentEnds(1_000);
    ends.ended("busy.com", T0, 60_000);
    ends.ended("busy.com", T0 + 10 * MS, 0);
    assertThat(ends.owed(T0 + 30_000 * MS, host -> 1_000)).isEqualTo(Map.of("busy.com", 30_001L));
    assertThat(ends.owed(T0 + 60_000 * MS, host -> 1_000)).isEmpty();
  }

  @Test
  void hostsPastTheLongestDelayAreForgotten() {
    RecentEnds ends = new RecentEnds(1_000);
    for (int i = 0; i < 10_000; i++) {
      ends.ended("h" + i + ".com", T0 + i * MS, 0);
    }
    assertThat(ends.size()).as("the ends of the last second, and the one just past it").isBetween(1_000, 1_002);
    assertThat(ends.owed(T0 + 10_000 * MS, host -> 1_000)).hasSize(999);
  }
}
