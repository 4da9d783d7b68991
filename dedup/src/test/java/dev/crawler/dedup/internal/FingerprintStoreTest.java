package dev.crawler.dedup.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.dedup.UrlFingerprint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FingerprintStoreTest {
  @TempDir Path dir;

  @Test
  void everyFingerprintComesBackAfterACloseAndReopen() throws Exception {
    List<UrlFingerprint> stored = fingerprints(10_000, 1);
    try (FingerprintStore store = new FingerprintStore(dir, false, 8 << 20)) {
      store.addAll(stored);
    }
    try (FingerprintStore store = new FingerprintStore(dir, false, 8 << 20)) {
      List<UrlFingerprint> read = new ArrayList<>();
      assertThat(store.forEach(read::add)).isEqualTo(stored.size());
      assertThat(read).containsExactlyInAnyOrderElementsOf(stored);
    }
  }

  /** A rebuild from part of the store would make every URL after the damage "new": it must fail instead. */
  @Test
  void aStoreThatCannotBeReadToItsEndFailsTheReadInsteadOfStoppingShort() throws Exception {
    try (FingerprintStore store = new FingerprintStore(dir, false, 8 << 20)) {
      store.addAll(fingerprints(300_000, 2));
      store.flush();
    }
    Path table;
    try (Stream<Path> files = Files.list(dir)) {
      table = files.filter(p -> p.toString().endsWith(".sst")).max(Comparator.comparingLong(FingerprintStoreTest::size))
          .orElseThrow();
    }
    try (FileChannel file = FileChannel.open(table, StandardOpenOption.WRITE)) {
      byte[] garbage = new byte[64];
      java.util.Arrays.fill(garbage, (byte) 0xAB);
      file.write(ByteBuffer.wrap(garbage), file.size() / 2);
    }
    try (FingerprintStore store = new FingerprintStore(dir, false, 8 << 20)) {
      assertThatThrownBy(() -> store.forEach(fp -> { })).isInstanceOf(IOException.class)
          .hasMessageContaining("cannot be read to its end");
    }
  }

  private static List<UrlFingerprint> fingerprints(int n, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<UrlFingerprint> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(new UrlFingerprint(random.nextLong(), random.nextLong()));
    }
    return out;
  }

  private static long size(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
