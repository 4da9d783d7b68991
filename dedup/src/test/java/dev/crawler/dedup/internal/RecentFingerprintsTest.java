package dev.crawler.dedup.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.dedup.UrlFingerprint;
import org.junit.jupiter.api.Test;

class RecentFingerprintsTest {
  @Test
  void aCapacityIsRoundedUpToAPowerOfTwoOfEightByteSlots() {
    assertThat(new RecentFingerprints(1_000).byteSize()).isEqualTo(8L * 1_024);
    assertThat(new RecentFingerprints(1_024).byteSize()).isEqualTo(8L * 1_024);
    assertThat(new RecentFingerprints(1_025).byteSize()).isEqualTo(8L * 2_048);
    for (int capacity : new int[] {1, 2, 3, 1_000, 1_024, 1_025, 1 << 20}) {
      assertThat(RecentFingerprints.bytesFor(capacity)).as("planned for %d", capacity)
          .isEqualTo(new RecentFingerprints(capacity).byteSize());
    }
  }

  @Test
  void aCapacityWhoseRoundingWouldOverflowAnIntIsRefusedByName() {
    assertThatThrownBy(() -> new RecentFingerprints(RecentFingerprints.MAX_CAPACITY + 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("capacity (1073741825) must be from 1 to 1073741824");
    assertThatThrownBy(() -> new RecentFingerprints(0)).hasMessageContaining("capacity (0)");
  }

  @Test
  void aNewerFingerprintWithTheSameSlotOverwritesTheOlder() {
    RecentFingerprints recent = new RecentFingerprints(2);   // two slots, picked by the high half's top bit
    UrlFingerprint older = new UrlFingerprint(1L, 11L);
    UrlFingerprint newer = new UrlFingerprint(2L, 22L);      // top bit 0 too: the same slot
    UrlFingerprint other = new UrlFingerprint(Long.MIN_VALUE, 33L);
    recent.add(older);
    recent.add(other);
    assertThat(recent.contains(older)).isTrue();
    recent.add(newer);
    assertThat(recent.contains(newer)).isTrue();
    assertThat(recent.contains(older)).isFalse();
    assertThat(recent.contains(other)).isTrue();
  }
}
