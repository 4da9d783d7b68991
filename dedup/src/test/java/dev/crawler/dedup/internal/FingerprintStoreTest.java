package dev.crawler.dedup.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.dedup.UrlFingerprint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FingerprintStoreTest {
  @TempDir Path dir;

  @Test
  void aBatchSplitOverTheReadThreadsAnswersEveryKeyInItsPlace() throws Exception {
    SplittableRandom random = new SplittableRandom(7);
    List<UrlFingerprint> present = new ArrayList<>();
    List<UrlFingerprint> batch = new ArrayList<>();
    List<Boolean> expected = new ArrayList<>();
    for (int i = 0; i < 101; i++) {   // odd, so the chunks differ in size
      UrlFingerprint fp = new UrlFingerprint(random.nextLong(), random.nextLong());
      boolean stored = random.nextBoolean();
      if (stored) {
        present.add(fp);
      }
      batch.add(fp);
      expected.add(stored);
    }
    try (FingerprintStore store = new FingerprintStore(dir, false, 1 << 20)) {
      store.addAll(present);
      assertThat(toList(store.containsAll(batch))).as("one multiGet").isEqualTo(expected);
      assertThat(store.readsGoToDisk()).as("reads from the memtable are fast").isFalse();

      for (int i = 0; i < 64; i++) {
        store.noteReadTime(1_000_000, 1);   // as if each key had waited 1 ms on the disk
      }
      assertThat(store.readsGoToDisk()).isTrue();
      assertThat(toList(store.containsAll(batch))).as("split over the read threads").isEqualTo(expected);
      assertThat(toList(store.containsAll(batch.subList(0, 3)))).as("too few keys to split")
          .isEqualTo(expected.subList(0, 3));
    }
    try (FingerprintStore reopened = new FingerprintStore(dir, false, 1 << 20)) {
      for (int i = 0; i < 64; i++) {
        reopened.noteReadTime(1_000_000, 1);
      }
      assertThat(toList(reopened.containsAll(batch))).as("after a reopen, from the SST files").isEqualTo(expected);
    }
  }

  private static List<Boolean> toList(boolean[] values) {
    List<Boolean> list = new ArrayList<>(values.length);
    for (boolean v : values) {
      list.add(v);
    }
    return list;
  }
}
