package dev.crawler.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.dedup.UrlSeenService.CapacityPolicy;
import dev.crawler.dedup.UrlSeenService.FalsePositivePolicy;
import dev.crawler.dedup.UrlSeenService.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A reopen loads the filter files only if they are the stack the last close saved. Found by a
 * fuzzer: the file names alone (0 to n-1) let a stack with its last file missing, or an older
 * copy of a file, load as complete, and it answered NEW again for URLs it had answered NEW.
 */
class SavedFilterStackTest {
  @TempDir Path dir;

  private UrlSeenService open(FalsePositivePolicy policy) throws IOException {
    return UrlSeenService.open(UrlSeenService.Options.builder(dir).expectedUrls(100).falsePositiveRate(0.01)
        .policy(policy).onCapacity(CapacityPolicy.GROW).recentUrls(16).build());
  }

  private static List<UrlFingerprint> batch(int from, int to) {
    List<UrlFingerprint> batch = new ArrayList<>();
    for (int i = from; i < to; i++) {
      batch.add(UrlFingerprint.of("https://h.example/p/" + i));
    }
    return batch;
  }

  @ParameterizedTest
  @EnumSource(FalsePositivePolicy.class)
  void aMissingLastFilterFileMeansARebuildNotAShorterStack(FalsePositivePolicy policy) throws Exception {
    List<UrlFingerprint> answeredNew = new ArrayList<>();   // under accept, a false positive is SEEN at once
    try (UrlSeenService seen = open(policy)) {
      for (int from = 0; from < 1000; from += 50) {
        List<UrlFingerprint> batch = batch(from, from + 50);
        List<Verdict> verdicts = seen.markSeenAll(batch);
        for (int i = 0; i < batch.size(); i++) {
          if (verdicts.get(i) == Verdict.NEW) {
            answeredNew.add(batch.get(i));
          }
        }
      }
      assertThat(seen.stats().filters()).isEqualTo(4);   // grown: 100, 200, 400, 800
    }
    assertThat(answeredNew).hasSizeGreaterThan(900);
    Files.delete(dir.resolve("filter-3.bloom"));

    try (UrlSeenService seen = open(policy)) {
      assertThat(seen.recovery()).isEqualTo(UrlSeenService.Recovery.REBUILT);
      assertThat(seen.markSeenAll(answeredNew)).as("answered NEW before the close").containsOnly(Verdict.SEEN);
    }
  }

  @ParameterizedTest
  @EnumSource(FalsePositivePolicy.class)
  void anOlderCopyOfAFilterFileMeansARebuild(FalsePositivePolicy policy) throws Exception {
    Path older = Files.createDirectory(dir.resolveSibling(dir.getFileName() + "-older"));
    try (UrlSeenService seen = open(policy)) {
      seen.markSeenAll(batch(0, 50));
    }
    Files.copy(dir.resolve("filter-0.bloom"), older.resolve("filter-0.bloom"));
    try (UrlSeenService seen = open(policy)) {
      assertThat(seen.markSeenAll(batch(50, 90))).containsOnly(Verdict.NEW);
    }
    Files.copy(older.resolve("filter-0.bloom"), dir.resolve("filter-0.bloom"), StandardCopyOption.REPLACE_EXISTING);

    try (UrlSeenService seen = open(policy)) {
      assertThat(seen.recovery()).isEqualTo(UrlSeenService.Recovery.REBUILT);
      assertThat(seen.markSeenAll(batch(50, 90))).as("answered NEW in the run before").containsOnly(Verdict.SEEN);
    }
  }
}
