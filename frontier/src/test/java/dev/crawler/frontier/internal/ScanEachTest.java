package dev.crawler.frontier.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FrontierStore#scanEach} reads several ranges with one iterator and does not seek again
 * into ranges a seek already went past; what it visits must be what one bounded scan a range
 * visits, whatever the ranges, deletions and early stops.
 */
class ScanEachTest {
  @TempDir Path dir;

  @Test
  void visitsWhatABoundedScanOfEachRangeVisits() {
    SplittableRandom random = new SplittableRandom(42);
    try (FrontierStore store = FrontierStore.open(dir, false, 8 << 20, 8 << 20, 1, 1)) {
      // 200 ranges [r, 0..49]; a third emptied entirely (the tombstones a drained queue leaves),
      // the rest keeping a random few of their keys.
      TreeSet<String> live = new TreeSet<>();
      long ticket = store.stage(batch -> {
        for (int r = 0; r < 200; r++) {
          for (int k = 0; k < 50; k++) {
            batch.put(store.queue, key(r, k), new byte[] {1});
          }
        }
      });
      store.awaitWritten(ticket);
      ticket = store.stage(batch -> {
        for (int r = 0; r < 200; r++) {
          boolean emptied = r % 3 == 0 || (r >= 100 && r < 140);
          for (int k = 0; k < 50; k++) {
            if (emptied || random.nextInt(10) > 0) {
              batch.delete(store.queue, key(r, k));
            } else {
              live.add(r + "/" + k);
            }
          }
        }
      });
      store.awaitWritten(ticket);
      assertThat(live).isNotEmpty();

      for (int round = 0; round < 50; round++) {
        List<Integer> ranges = new ArrayList<>();
        for (int r = 0; r < 200; r++) {
          if (random.nextInt(4) == 0) {
            ranges.add(r);
          }
        }
        int[] stopAfter = new int[ranges.size()];   // 0: read the whole range
        for (int i = 0; i < stopAfter.length; i++) {
          stopAfter[i] = random.nextInt(3) == 0 ? 1 + random.nextInt(2) : 0;
        }
        List<byte[]> froms = new ArrayList<>();
        List<byte[]> uppers = new ArrayList<>();
        for (int r : ranges) {
          froms.add(key(r, 0));
          uppers.add(key(r, 50));
        }
        List<String> together = new ArrayList<>();
        int[] seen = new int[ranges.size()];
        store.scanEach(store.queue, froms, uppers, (i, k, v) -> {
          together.add(i + ":" + decode(k));
          seen[i]++;
          return stopAfter[i] == 0 || seen[i] < stopAfter[i];
        });
        List<String> oneByOne = new ArrayList<>();
        for (int i = 0; i < ranges.size(); i++) {
          int range = i;
          int[] count = {0};
          store.scan(store.queue, froms.get(i), uppers.get(i), (k, v) -> {
            oneByOne.add(range + ":" + decode(k));
            count[0]++;
            return stopAfter[range] == 0 || count[0] < stopAfter[range];
          });
        }
        assertThat(together).as("round %s, ranges %s", round, ranges).containsExactlyElementsOf(oneByOne);
      }
    }
  }

  private static byte[] key(int range, int k) {
    return new byte[] {1, (byte) (range >>> 8), (byte) range, 0, (byte) k};
  }

  private static String decode(byte[] key) {
    return (((key[1] & 0xFF) << 8) | (key[2] & 0xFF)) + "/" + key[4];
  }
}
