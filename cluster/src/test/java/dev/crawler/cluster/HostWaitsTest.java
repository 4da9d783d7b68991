package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HostWaitsTest {
  @Test
  void aHandOverComesBackFromItsChunks() {
    Map<String, Long> waits = new HashMap<>();
    for (int i = 0; i < 1_000; i++) {
      waits.put("host-" + i + ".example.com", 1L + i);
    }
    waits.put("bücher.example", 30_000L);
    HostWaits handOver = new HostWaits(42, 1_234, 3_000, waits);
    List<byte[]> chunks = handOver.chunks(4_096);
    assertThat(chunks).as("a thousand hosts in chunks of 4 KiB").hasSizeGreaterThan(5)
        .allSatisfy(c -> assertThat(c.length).isLessThanOrEqualTo(4_096));
    List<HostWaits.Chunk> decoded = new ArrayList<>();
    for (byte[] c : chunks) {
      decoded.add(HostWaits.decode(c));
    }
    assertThat(decoded.get(decoded.size() - 1).index()).isEqualTo(chunks.size() - 1);
    assertThat(HostWaits.of(decoded)).isEqualTo(handOver);
  }

  @Test
  void noHostWaitingIsStillOneChunk() {
    HostWaits none = new HostWaits(7, 0, 0, Map.of());
    List<byte[]> chunks = none.chunks(HandOverTopic.CHUNK_BYTES);
    assertThat(chunks).hasSize(1);
    assertThat(HostWaits.of(List.of(HostWaits.decode(chunks.get(0))))).isEqualTo(none);
  }

  @Test
  void chunksOfTwoHandOversOrOutOfOrderAreRefused() {
    List<byte[]> a = new HostWaits(1, 5, 0, Map.of("a.com", 10L, "b.com", 20L)).chunks(60);
    List<byte[]> b = new HostWaits(2, 9, 0, Map.of("c.com", 10L, "d.com", 20L)).chunks(60);
    assertThat(a).hasSize(2);
    assertThatThrownBy(() -> HostWaits.of(List.of(HostWaits.decode(a.get(0)), HostWaits.decode(b.get(1)))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chunk 1 of hand-over 2");
    assertThatThrownBy(() -> HostWaits.of(List.of(HostWaits.decode(a.get(1)), HostWaits.decode(a.get(0)))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chunk 1 of hand-over 1 where chunk 0");
  }

  @Test
  void aRecordThatIsNotAChunkIsAClearError() {
    byte[] chunk = new HostWaits(1, 5, 0, Map.of("a.com", 10L)).chunks(1_024).get(0);
    assertThatThrownBy(() -> HostWaits.decode(Arrays.copyOf(chunk, chunk.length - 3)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cut short");
    byte[] otherVersion = chunk.clone();
    otherVersion[0] = 9;
    assertThatThrownBy(() -> HostWaits.decode(otherVersion)).hasMessageContaining("version (9) is not 1");
    assertThatThrownBy(() -> HostWaits.decode(new byte[3])).hasMessageContaining("at least");
    assertThatThrownBy(() -> new HostWaits(1, 0, 0, Map.of("a.com", 0L))).hasMessageContaining("must be > 0");
  }
}
