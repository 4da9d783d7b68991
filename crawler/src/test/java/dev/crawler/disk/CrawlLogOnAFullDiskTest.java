package dev.crawler.disk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.record.CrawlLog;
import dev.crawler.record.CrawlLogEntry;
import dev.crawler.record.CrawlOutcome;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The crawl log on a disk that fills: a line that could not be written is never written later. */
class CrawlLogOnAFullDiskTest {
  @TempDir Path tmp;

  private static CrawlLogEntry line(String path) {
    return new CrawlLogEntry(Instant.parse("2025-05-01T12:00:00Z"), CrawlOutcome.FETCHED, 200, 1000,
        Duration.ofMillis(5), "http://127.0.0.1/" + path, null, "text/html", 0, null);
  }

  @Test
  void aLineThatFailedIsNotWrittenOnceSpaceIsFreedAndLaterLinesFailToo() throws Exception {
    try (SmallFilesystem disk = SmallFilesystem.mount(tmp.resolve("small"), 1)) {
      Path file = disk.root().resolve("crawl.log");
      CrawlLog log = new CrawlLog(file);
      log.log(line("before"));
      Path filler = disk.fillCompletely("filler.bin");

      // Longer than what a nearly full page of the file may still take.
      assertThatThrownBy(() -> log.log(line("cut-" + "x".repeat(8_000))))
          .isInstanceOf(UncheckedIOException.class).hasMessageContaining("Cannot write crawl log");
      Files.delete(filler);   // space again: the crawl has stopped, but another worker may still log
      assertThatThrownBy(() -> log.log(line("after"))).isInstanceOf(UncheckedIOException.class);
      log.close();

      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      assertThat(lines).noneMatch(l -> l.contains("/after"));
      assertThat(lines.get(0)).isEqualTo(CrawlLogEntry.HEADER);
      assertThat(lines.get(1)).contains("/before");
      // What reached the disk of the failed line (if any) is a cut line, never a whole one.
      assertThat(lines.subList(2, lines.size())).noneMatch(l -> l.endsWith(" 0 -") && l.contains("/cut-"));
    }
  }
}
