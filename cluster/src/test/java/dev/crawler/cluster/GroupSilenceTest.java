package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GroupSilenceTest {
  private static final long S = 1_000_000_000L;

  @Test
  void pausesOnceAfterTheSilenceAndResumesAtTheNextAnswer() {
    GroupSilence silence = new GroupSilence(Duration.ofSeconds(3), 0);
    assertThat(silence.observe(0, 1 * S)).isEqualTo(GroupSilence.Change.NONE);
    assertThat(silence.observe(1, 2 * S)).as("the first answer").isEqualTo(GroupSilence.Change.NONE);
    assertThat(silence.observe(1, 4 * S)).as("2 s of silence").isEqualTo(GroupSilence.Change.NONE);
    assertThat(silence.observe(1, 5 * S)).as("3 s of silence").isEqualTo(GroupSilence.Change.PAUSE);
    assertThat(silence.paused()).isTrue();
    assertThat(silence.observe(1, 9 * S)).as("paused already").isEqualTo(GroupSilence.Change.NONE);
    assertThat(silence.silence(9 * S)).isEqualTo(Duration.ofSeconds(7));
    assertThat(silence.observe(2, 10 * S)).as("an answer").isEqualTo(GroupSilence.Change.RESUME);
    assertThat(silence.paused()).isFalse();
    assertThat(silence.observe(2, 12 * S)).isEqualTo(GroupSilence.Change.NONE);
    assertThat(silence.observe(2, 13 * S)).as("silent again, counted from the last answer")
        .isEqualTo(GroupSilence.Change.PAUSE);
  }

  @Test
  void aGroupNeverHeardCountsFromTheStart() {
    GroupSilence silence = new GroupSilence(Duration.ofSeconds(3), 10 * S);
    assertThat(silence.observe(0, 12 * S)).isEqualTo(GroupSilence.Change.NONE);
    assertThat(silence.observe(0, 13 * S)).isEqualTo(GroupSilence.Change.PAUSE);
    assertThat(silence.observe(1, 14 * S)).isEqualTo(GroupSilence.Change.RESUME);
  }

  @Test
  void aCountAlreadyUpAtTheFirstLookIsAnAnswer() {
    GroupSilence silence = new GroupSilence(Duration.ofSeconds(3), 0);
    assertThat(silence.observe(5, 10 * S)).isEqualTo(GroupSilence.Change.NONE);
    assertThat(silence.observe(5, 12 * S)).as("2 s since that answer, 12 since the start")
        .isEqualTo(GroupSilence.Change.NONE);
  }

  @Test
  void theSilenceMustBePositive() {
    assertThatThrownBy(() -> new GroupSilence(Duration.ZERO, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
