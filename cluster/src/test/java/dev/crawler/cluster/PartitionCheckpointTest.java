package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionCheckpointTest {
  @TempDir
  Path dir;

  @Test
  void aCheckpointHasThePinnedLayout() {
    String hex = HexFormat.of().formatHex(PartitionCheckpoint.encode(7, new PartitionCheckpoint(0x0102, 0x03)));
    assertThat(hex).startsWith("01" + "00000007" + "0000000000000102" + "0000000000000003").hasSize(2 * 25);
  }

  @Test
  void aCheckpointWrittenReadsBackAndReplacesTheOneBefore() throws Exception {
    assertThat(PartitionCheckpoint.read(dir, 3)).isEmpty();
    PartitionCheckpoint.write(dir, 3, new PartitionCheckpoint(10, 4), false);
    PartitionCheckpoint.write(dir, 3, new PartitionCheckpoint(25, 4), true);
    assertThat(PartitionCheckpoint.read(dir, 3)).contains(new PartitionCheckpoint(25, 4));
    assertThat(dir.resolve("checkpoint.tmp")).doesNotExist();
  }

  @Test
  void anotherPartitionsOrADamagedCheckpointIsRefused() throws Exception {
    PartitionCheckpoint.write(dir, 3, new PartitionCheckpoint(10, 4), false);
    assertThatThrownBy(() -> PartitionCheckpoint.read(dir, 5))
        .hasMessageContaining("is the checkpoint of partition 3, not 5");
    byte[] bytes = Files.readAllBytes(dir.resolve("checkpoint"));
    bytes[12] ^= 1;
    Files.write(dir.resolve("checkpoint"), bytes);
    assertThatThrownBy(() -> PartitionCheckpoint.read(dir, 3)).hasMessageContaining("its checksum does not match");
    bytes[0] = 2;
    Files.write(dir.resolve("checkpoint"), bytes);
    assertThatThrownBy(() -> PartitionCheckpoint.read(dir, 3)).hasMessageContaining("version 2");
  }
}
