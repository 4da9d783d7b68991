package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GroupTimeoutsTest {
  private static Duration pauseAfter(long sessionMs, long intervalMs) {
    return new GroupTimeouts(Duration.ofMillis(sessionMs), Duration.ofMillis(intervalMs)).pauseAfter();
  }

  @Test
  void halfTheSessionWhenHeartbeatsComeOftenEnough() {
    assertThat(pauseAfter(45_000, 5_000)).as("Kafka's defaults").isEqualTo(Duration.ofMillis(22_500));
    assertThat(pauseAfter(6_000, 500)).as("the test broker's").isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void neverWithinAHeartbeatIntervalAndAHalf() {
    assertThat(pauseAfter(10_000, 5_000)).as("half the session is one interval").isEqualTo(Duration.ofMillis(7_500));
    assertThat(pauseAfter(4_000, 1_000)).as("at least a second beyond the interval").isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void neverPastTheSessionLessASecond() {
    assertThat(pauseAfter(6_000, 5_000)).isEqualTo(Duration.ofSeconds(5));
  }
}
