package dev.crawler.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.record.CrawlOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatsSnapshotJsonTest {
  private static final Instant T0 = Instant.parse("2025-05-01T12:00:00Z");

  @TempDir Path dir;

  @Test
  void aSnapshotComesBackFromTheStatsFile() throws IOException {
    Path file = dir.resolve("stats.json");
    StatsSnapshot crawl = StatsLineTest.crawl();
    Sample now = new Sample(T0.plusSeconds(10), crawl, StatsLineTest.FRONTIER, StatsLineTest.VERIFY);
    StatsFile.of(new Sample(T0, StatsSnapshot.EMPTY, null, null), new Sample(T0, StatsSnapshot.EMPTY, null, null), now)
        .writeAtomically(file);

    assertThat(StatsSnapshot.readFrom(file)).isEqualTo(crawl);
    StatsFile back = StatsFile.read(file);
    assertThat(back.frontier()).isEqualTo(StatsLineTest.FRONTIER);
    assertThat(back.seen()).isEqualTo(StatsLineTest.VERIFY);
    assertThat(back.pagesPerSecond()).isEqualTo(1241.8);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).containsExactly(file); // the temporary file was moved, not left beside it
    }
  }

  /**
   * The stored format, pinned: renaming a component, a status class or an enum value breaks
   * resuming from files written before. Change the fixture only with a reader for the old names.
   */
  @Test
  void theStatsFileLayoutIsPinned() throws IOException {
    Path file = dir.resolve("stats.json");
    Sample start = new Sample(T0, StatsSnapshot.EMPTY, null, null);
    StatsFile.of(start, start, new Sample(T0.plusSeconds(10), StatsLineTest.crawl(), StatsLineTest.FRONTIER,
        StatsLineTest.VERIFY)).writeAtomically(file);

    assertThat(Files.readString(file).replace("\r\n", "\n")).isEqualTo(fixture("stats-v2.json"));
  }

  /** A crawl whose stats.json an older version wrote resumes with its totals. */
  @Test
  void aFormatOneFileStillGivesTheTotalsToResumeFrom() throws IOException {
    Path file = Files.writeString(dir.resolve("stats.json"), fixture("stats-v1.json"));

    StatsSnapshot totals = StatsSnapshot.readFrom(file);

    assertThat(totals.pages()).isEqualTo(12_418);
    assertThat(totals.outcome(CrawlOutcome.FETCHED)).isEqualTo(11_920);
    assertThat(totals.robotsFetches()).isEqualTo(8_211);
  }

  @Test
  void afterAResumeTheFileKeepsTheWholeCrawlsTotalsAndThisRunsAndSaysWhichIsWhich() throws IOException {
    Path file = dir.resolve("stats.json");
    StatsSnapshot before = new StatsSnapshot(10_000, 0, java.util.Map.of(CrawlOutcome.FETCHED, 10_000L), null, null,
        100);
    Sample start = new Sample(T0, before, null, null);
    StatsFile.of(start, start, new Sample(T0.plusSeconds(10), StatsLineTest.crawl(), null, null)).writeAtomically(file);

    StatsFile back = StatsFile.read(file);

    assertThat(back.crawl().pages()).isEqualTo(12_458);
    assertThat(back.thisRun().pages()).isEqualTo(2_458);
    assertThat(back.thisRun().outcome(CrawlOutcome.FETCHED)).isEqualTo(1_960);
    assertThat(back.thisRun().robotsFetches()).isEqualTo(8_111);
    assertThat(back.scope()).containsEntry("crawl", "the whole crawl: every run, this one included")
        .containsEntry("thisRun", "this run").containsKeys("runSeconds", "seen", "frontier", "failures");
  }

  @Test
  void unknownFieldsAndEnumNamesAreIgnoredAndMissingOnesReadAsZero() throws IOException {
    Path file = Files.writeString(dir.resolve("stats.json"), """
        {"format": 2, "someNewField": {"x": 1},
         "crawl": {"pages": 7, "outcomes": {"FETCHED": 5, "RENAMED_SINCE": 2},
                   "statuses": {"2xx": 5, "6xx": 1}, "links": {"NEW": 3}, "later": true}}
        """);

    StatsSnapshot s = StatsSnapshot.readFrom(file);

    assertThat(s.pages()).isEqualTo(7);
    assertThat(s.outcome(CrawlOutcome.FETCHED)).isEqualTo(5);
    assertThat(s.outcomes()).hasSize(CrawlOutcome.values().length);
    assertThat(s.statuses().successful()).isEqualTo(5);
    assertThat(s.links(LinkVerdict.NEW)).isEqualTo(3);
    assertThat(s.links(LinkVerdict.DUPLICATE)).isZero();
    assertThat(s.bytes()).isZero();
    // Not 0: a resume would count the whole crawl log again on top of these totals.
    assertThat(s.crawlLogBytes()).as("a file written before the crawl log's length was kept").isEqualTo(-1);
  }

  @Test
  void aMissingOrBrokenStatsFileIsReportedNamingTheFile() throws IOException {
    Path missing = dir.resolve("missing.json");
    assertThatThrownBy(() -> StatsSnapshot.readFrom(missing))
        .isInstanceOf(UncheckedIOException.class).hasMessageContaining(missing.toString());
    Path broken = Files.writeString(dir.resolve("broken.json"), "{\"crawl\": {\"pages\": ");
    assertThatThrownBy(() -> StatsSnapshot.readFrom(broken))
        .isInstanceOf(UncheckedIOException.class).hasMessageContaining(broken.toString());
  }

  private static String fixture(String name) throws IOException {
    try (InputStream in = StatsSnapshotJsonTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
