package dev.crawler.dedup.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilterStackFilesTest {
  @TempDir Path dir;

  /** A save cut short (a kill, a full disk) leaves a temp file as big as the filter: a rebuild clears it too. */
  @Test
  void deletingTheFilesAlsoClearsTempFilesOfACutSave() throws Exception {
    Files.writeString(dir.resolve("filter-0.bloom"), "x");
    Files.writeString(dir.resolve("filter-1.bloom.tmp"), "part of a save");
    Files.writeString(dir.resolve("other.txt"), "not ours");
    FilterStack.deleteFiles(dir);
    try (Stream<Path> left = Files.list(dir)) {
      assertThat(left.map(p -> p.getFileName().toString())).containsExactly("other.txt");
    }
  }
}
