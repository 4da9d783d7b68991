package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.dedup.UrlSeenService;
import dev.crawler.frontier.FetchOutcome;
import dev.crawler.intake.AdmittedUrl;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One partition's state on its own, without a broker: what a take leaves, through a close and reopen. */
class PartitionStateTest {
  @TempDir
  Path dir;

  @Test
  void takenUrlsAndTheirCheckpointSurviveACloseAndReopen() throws Exception {
    List<AdmittedUrl> urls = PartitionFixtures.urlsOf(1, 4, 5, 60);
    try (PartitionState state = PartitionState.open(dir, 1, PartitionFixtures.options(10_000, false))) {
      assertThat(state.heldBefore()).isFalse();
      assertThat(state.checkpoint()).isEqualTo(PartitionCheckpoint.START);
      assertThat(state.takeUrls(urls.subList(0, 40), 40)).isEqualTo(40);
      // A replay of records taken before (a kill before the checkpoint moved) queues nothing twice.
      assertThat(state.takeUrls(urls.subList(30, 60), 60)).isEqualTo(20);
      state.takeDone(List.of(DoneRecord.of("h.example.com", "https://h.example.com/", FetchOutcome.Kind.FETCHED)), 1);
    }
    try (PartitionState state = PartitionState.open(dir, 1, PartitionFixtures.options(10_000, false))) {
      assertThat(state.heldBefore()).isTrue();
      assertThat(state.checkpoint()).isEqualTo(new PartitionCheckpoint(60, 1));
      assertThat(state.seen().markSeen("https://h.example.com/")).isEqualTo(UrlSeenService.Verdict.SEEN);
      assertThat(PartitionFixtures.drain(state.frontier()))
          .containsExactlyInAnyOrderElementsOf(urls.stream().map(u -> u.url().url()).toList());
    }
  }

  @Test
  void theCheckpointFileIsWrittenAtTheFirstTakeThenAtMostOnceAnIntervalAndExactlyAtClose() throws Exception {
    List<AdmittedUrl> urls = PartitionFixtures.urlsOf(1, 4, 5, 300);
    PartitionState.Options hourly = PartitionFixtures.options(10_000, false).withCheckpointEvery(Duration.ofHours(1));
    try (PartitionState state = PartitionState.open(dir, 1, hourly)) {
      state.takeUrls(urls.subList(0, 10), 10);
      assertThat(PartitionCheckpoint.read(dir, 1)).as("the first take's checkpoint is written at once")
          .contains(new PartitionCheckpoint(10, 0));
      for (int i = 10; i < 300; i += 10) {
        state.takeUrls(urls.subList(i, i + 10), i + 10);
      }
      assertThat(PartitionCheckpoint.read(dir, 1)).as("the file within the interval: behind the state, never ahead")
          .contains(new PartitionCheckpoint(10, 0));
      assertThat(state.checkpoint()).isEqualTo(new PartitionCheckpoint(300, 0));
    }
    assertThat(PartitionCheckpoint.read(dir, 1)).as("the file, once closed").contains(new PartitionCheckpoint(300, 0));
  }

  @Test
  void withNoIntervalEveryTakeRewritesTheCheckpointFile() throws Exception {
    List<AdmittedUrl> urls = PartitionFixtures.urlsOf(1, 4, 5, 50);
    PartitionState.Options always = PartitionFixtures.options(10_000, false).withCheckpointEvery(Duration.ZERO);
    try (PartitionState state = PartitionState.open(dir, 1, always)) {
      for (int i = 0; i < 50; i += 10) {
        state.takeUrls(urls.subList(i, i + 10), i + 10);
        assertThat(PartitionCheckpoint.read(dir, 1)).contains(new PartitionCheckpoint(i + 10, 0));
      }
    }
  }

  @Test
  void aStateNeverTakenWritesNoCheckpointAndOpensAsNewAgain() throws Exception {
    try (PartitionState state = PartitionState.open(dir, 1, PartitionFixtures.options(1_000, false))) {
      assertThat(state.heldBefore()).isFalse();
    }
    assertThat(PartitionCheckpoint.read(dir, 1)).isEmpty();
    try (PartitionState state = PartitionState.open(dir, 1, PartitionFixtures.options(1_000, false))) {
      assertThat(state.heldBefore()).as("so the done records of its first replay are not kept as done elsewhere")
          .isFalse();
    }
  }

  /**
   * A state that left during its first catch-up holds done records and no URL: given back, the
   * rest of its done records are not kept as done elsewhere, since nothing of them is queued. One
   * that took URL records keeps them, through a close and reopen.
   */
  @Test
  void onlyAStateThatTookUrlRecordsKeepsTheUrlsDoneElsewhere() throws Exception {
    List<AdmittedUrl> urls = PartitionFixtures.urlsOf(0, 1, 2, 10);
    List<DoneRecord> done = urls.stream()
        .map(u -> DoneRecord.of(u.queueKey(), u.url().url(), FetchOutcome.Kind.FETCHED)).toList();
    Path first = dir.resolve("first-catch-up");
    try (PartitionState state = PartitionState.open(first, 0, PartitionFixtures.options(1_000, false))) {
      state.takeDone(done.subList(0, 3), 3);
    }
    try (PartitionState state = PartitionState.open(first, 0, PartitionFixtures.options(1_000, false))) {
      assertThat(state.heldBefore()).isTrue();
      assertThat(state.mayHoldDoneElsewhere()).isFalse();
      state.takeDone(done.subList(3, 10), 10);
      assertThat(urls).noneMatch(u -> state.doneElsewhere(u.url().url()));
      assertThat(state.takeUrls(urls, 10)).as("every URL done: none queued").isZero();
    }
    Path took = dir.resolve("took-urls");
    try (PartitionState state = PartitionState.open(took, 0, PartitionFixtures.options(1_000, false))) {
      state.takeUrls(urls, 10);
    }
    try (PartitionState state = PartitionState.open(took, 0, PartitionFixtures.options(1_000, false))) {
      assertThat(state.mayHoldDoneElsewhere()).isTrue();
      state.takeDone(done.subList(0, 4), 4);
    }
    try (PartitionState state = PartitionState.open(took, 0, PartitionFixtures.options(1_000, false))) {
      assertThat(urls.subList(0, 4)).allMatch(u -> state.doneElsewhere(u.url().url()));
      assertThat(urls.subList(4, 10)).noneMatch(u -> state.doneElsewhere(u.url().url()));
    }
  }

  @Test
  void aDoneUrlTakenBeforeItsUrlRecordIsNeverQueued() throws Exception {
    List<AdmittedUrl> urls = PartitionFixtures.urlsOf(0, 1, 2, 10);
    try (PartitionState state = PartitionState.open(dir, 0, PartitionFixtures.options(10_000, false))) {
      state.takeDone(List.of(DoneRecord.of(urls.get(3).queueKey(), urls.get(3).url().url(), FetchOutcome.Kind.FAILED)),
          1);
      assertThat(state.takeUrls(urls, 10)).isEqualTo(9);
      assertThat(state.frontier().stats().queuedUrls()).isEqualTo(9);
    }
  }

  @Test
  void anOffsetBeforeTheCheckpointIsAProgrammerError() throws Exception {
    try (PartitionState state = PartitionState.open(dir, 2, PartitionFixtures.options(1_000, false))) {
      state.takeUrls(List.of(), 50);
      assertThatThrownBy(() -> state.takeUrls(List.of(), 49))
          .hasMessageContaining("partition 2: next URL offset (49) is before the checkpoint's (50)");
    }
  }

  @Test
  void aFolderOfAnotherPartitionIsRefused() throws Exception {
    try (PartitionState state = PartitionState.open(dir, 2, PartitionFixtures.options(1_000, false))) {
      state.takeUrls(List.of(), 5);
    }
    assertThatThrownBy(() -> PartitionState.open(dir, 3, PartitionFixtures.options(1_000, false)))
        .hasMessageContaining("is the checkpoint of partition 2, not 3");
  }
}
