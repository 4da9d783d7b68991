package dev.crawler.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnpackedLibraryTest {
  private static final UnpackedLibrary.Source SAMPLE =
      new UnpackedLibrary.Source(UnpackedLibraryTest.class.getClassLoader(), "dev/crawler/rocks/sample-library.bin");

  @TempDir Path dir;

  private static byte[] sampleBytes() throws Exception {
    try (InputStream in = SAMPLE.loader().getResourceAsStream(SAMPLE.name())) {
      return in.readAllBytes();
    }
  }

  @Test
  void unpacksTheResourceWholeIntoAFolderItCreates() throws Exception {
    Path file = UnpackedLibrary.in(dir.resolve("a/b"), "libsample.so", SAMPLE);
    assertThat(file).isEqualTo(dir.resolve("a/b/libsample.so")).hasBinaryContent(sampleBytes());
    try (Stream<Path> files = Files.list(dir.resolve("a/b"))) {
      assertThat(files).containsExactly(file);
    }
  }

  @Test
  void aFileOfTheRightSizeIsKept() throws Exception {
    Path file = UnpackedLibrary.in(dir, "libsample.so", SAMPLE);
    Object inode = Files.readAttributes(file, "unix:ino").get("ino");
    assertThat(UnpackedLibrary.in(dir, "libsample.so", SAMPLE)).isEqualTo(file);
    assertThat(Files.readAttributes(file, "unix:ino").get("ino")).isEqualTo(inode);
  }

  @Test
  void aFileCutShortIsUnpackedAgain() throws Exception {
    byte[] sample = sampleBytes();
    Files.write(dir.resolve("libsample.so"), java.util.Arrays.copyOf(sample, sample.length / 2));
    assertThat(UnpackedLibrary.in(dir, "libsample.so", SAMPLE)).hasBinaryContent(sample);
  }

  @Test
  void aPartFileAbandonedLongAgoIsRemovedAndARecentOneKept() throws Exception {
    Path old = Files.writeString(dir.resolve("libsample.so.123.part"), "half");
    Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(2, ChronoUnit.HOURS)));
    Path recent = Files.writeString(dir.resolve("libsample.so.456.part"), "another process's");
    UnpackedLibrary.in(dir, "libsample.so", SAMPLE);
    assertThat(old).doesNotExist();
    assertThat(recent).exists();
  }

  @Test
  void aResourceNotOnTheClassPathIsNamed() {
    assertThatThrownBy(() -> UnpackedLibrary.in(dir, "libx.so",
        new UnpackedLibrary.Source(getClass().getClassLoader(), "no/such/library.so")))
        .isInstanceOf(FileNotFoundException.class).hasMessageContaining("no/such/library.so");
  }
}
