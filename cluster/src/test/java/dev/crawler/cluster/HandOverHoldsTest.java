package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HandOverHoldsTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long T0 = 5_000_000 * MS;

  @Test
  void aHostIsHeldItsOwnWaitOrTheWaitOfAllWhicheverIsLonger() {
    HandOverHolds holds = HandOverHolds.of(Map.of("slow.com", 1_000L, "busy.com", 60_000L), 2_000, T0);
    assertThat(holds.remainingMillis("slow.com", T0 + 500 * MS)).as("every host's 2 s").isEqualTo(1_500);
    assertThat(holds.remainingMillis("other.com", T0 + 1_999 * MS)).isEqualTo(1);
    assertThat(holds.remainingMillis("other.com", T0 + 2_000 * MS)).isZero();
    assertThat(holds.remainingMillis("busy.com", T0 + 2_000 * MS)).isEqualTo(58_000);
    assertThat(holds.everyHostMillis(T0 + 1_000 * MS)).isEqualTo(1_000);
    assertThat(holds.hostsStillHeld(T0 + 1_500 * MS)).as("what the next hand-over carries on")
        .isEqualTo(Map.of("busy.com", 58_500L));
  }

  @Test
  void nothingHoldsAPartitionNobodyFetchedFrom() {
    assertThat(HandOverHolds.NONE.remainingMillis("any.com", T0)).isZero();
    assertThat(HandOverHolds.NONE.everyHostMillis(T0)).isZero();
    assertThat(HandOverHolds.NONE.hostsStillHeld(T0)).isEmpty();
  }
}
