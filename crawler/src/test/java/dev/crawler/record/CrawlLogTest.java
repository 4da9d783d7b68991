package dev.crawler.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrawlLogTest {
  @TempDir Path dir;

  private static CrawlLogEntry entry(String url) {
    return new CrawlLogEntry(Instant.parse("2025-05-01T12:00:00Z"), CrawlOutcome.FETCHED, 200, 10,
        Duration.ofMillis(5), url, null, "text/html", 0, null);
  }

  @Test
  void aResumedCrawlAppendsToTheSameFile() throws IOException {
    Path file = dir.resolve("logs/crawl.log");
    try (CrawlLog log = new CrawlLog(file)) {
      log.log(entry("http://example.test/1"));
    }
    try (CrawlLog log = new CrawlLog(file)) {
      log.log(entry("http://example.test/2"));
    }

    assertThat(CrawlLogReader.readAll(file)).extracting(CrawlLogEntry::url)
        .containsExactly("http://example.test/1", "http://example.test/2");
  }

  /**
   * A line cut by a full disk or a power cut: its visit was neither counted nor settled, so the
   * URL is visited again. Cut inside its last column it would still read as a whole line, and
   * count that visit twice.
   */
  @Test
  void aCutLastLineIsNotReadAndIsRemovedBeforeTheNextOne() throws IOException {
    Path file = dir.resolve("crawl.log");
    String cut = new CrawlLogEntry(Instant.parse("2025-05-01T12:00:00Z"), CrawlOutcome.FETCHED, 200, 10,
        Duration.ofMillis(5), "http://example.test/2", null, "text/html", 0, "robots.txt").format();
    cut = cut.substring(0, cut.length() - 2);   // its detail column cut short ("robots.t"): it still parses
    assertThat(CrawlLogEntry.parse(cut).url()).isEqualTo("http://example.test/2");
    Files.writeString(file, entry("http://example.test/1").format() + "\n" + cut);

    List<String> read = new ArrayList<>();
    assertThat(CrawlLogReader.forEach(file, 0, e -> read.add(e.url()))).as("unreadable lines").isEqualTo(1);
    assertThat(read).containsExactly("http://example.test/1");

    try (CrawlLog log = new CrawlLog(file)) {
      assertThat(log.<Long>atLength(length -> length)).isEqualTo(Files.size(file));
      log.log(entry("http://example.test/3"));
    }
    assertThat(CrawlLogReader.readAll(file)).extracting(CrawlLogEntry::url)
        .containsExactly("http://example.test/1", "http://example.test/3");
  }

  @Test
  void aNewLogStartsWithItsColumnLegendOnceWhichReadersSkip() throws IOException {
    Path file = dir.resolve("crawl.log");
    try (CrawlLog log = new CrawlLog(file)) {
      log.log(entry("http://example.test/1"));
    }
    try (CrawlLog log = new CrawlLog(file)) {
      log.log(entry("http://example.test/2"));
    }

    List<String> lines = Files.readAllLines(file);
    assertThat(lines).hasSize(3).filteredOn(CrawlLogEntry::isComment).containsExactly(CrawlLogEntry.HEADER);
    assertThat(lines.get(0)).startsWith("# time(UTC) outcome status bytes ms url via content-type depth detail");
    List<String> read = new ArrayList<>();
    assertThat(CrawlLogReader.forEach(file, 0, e -> read.add(e.url()))).as("unreadable lines").isZero();
    assertThat(read).containsExactly("http://example.test/1", "http://example.test/2");
  }

  @Test
  void aLoggedLineIsInTheFileAtOnceSoAKilledCrawlLosesNone() throws IOException {
    Path file = dir.resolve("crawl.log");
    try (CrawlLog log = new CrawlLog(file)) {
      log.log(entry("http://example.test/1"));
      log.log(entry("http://example.test/2"));
      assertThat(CrawlLogReader.readAll(file)).extracting(CrawlLogEntry::url)
          .containsExactly("http://example.test/1", "http://example.test/2");
    }
  }

  /** A stats.json names the length its counters stand for; a resume counts the lines after it. */
  @Test
  void theLengthIsTheFilesAndTheCountRunsWithTheLineNeverWithoutIt() throws Exception {
    Path file = dir.resolve("crawl.log");
    java.util.concurrent.atomic.AtomicLong counted = new java.util.concurrent.atomic.AtomicLong();
    try (CrawlLog log = new CrawlLog(file)) {
      assertThat(log.<Long>atLength(length -> length)).isZero();
      log.log(entry("http://example.test/é"), counted::incrementAndGet);   // two UTF-8 bytes for one char
      assertThat(log.<Long>atLength(length -> length)).isEqualTo(Files.size(file));
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        workers.add(Thread.ofPlatform().start(() -> {
          for (int i = 0; i < 2_000; i++) {
            log.log(entry("http://example.test/" + thread + "/" + i), counted::incrementAndGet);
          }
        }));
      }
      // While they write: every length read holds exactly the lines counted at that moment.
      while (workers.stream().anyMatch(Thread::isAlive)) {
        long[] seen = log.atLength(length -> new long[] {length, counted.get()});
        assertThat(linesIn(file, seen[0])).isEqualTo(seen[1] + 1);   // and the header
      }
      for (Thread worker : workers) {
        worker.join();
      }
      assertThat(log.<Long>atLength(length -> length)).isEqualTo(Files.size(file));
    }
    // Reopened after a cut line: the length is the whole lines', the cut bytes gone.
    long whole = Files.size(file);
    Files.write(file, "2026-12-01T00:00:00Z 200".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
    try (CrawlLog log = new CrawlLog(file)) {
      assertThat(log.<Long>atLength(length -> length)).isEqualTo(whole).isEqualTo(Files.size(file));
    }
  }

  /** A kept length that begins no line (the log replaced since) reads nothing rather than half a line on. */
  @Test
  void readingFromALengthThatBeginsNoLineReadsNothing() throws IOException {
    Path file = dir.resolve("crawl.log");
    try (CrawlLog log = new CrawlLog(file)) {
      log.log(entry("http://example.test/1"));
      log.log(entry("http://example.test/2"));
    }
    String text = Files.readString(file);
    long second = text.indexOf('\n', text.indexOf('\n') + 1) + 1;   // after the header and the first entry
    List<String> read = new ArrayList<>();
    CrawlLogReader.forEach(file, second, e -> read.add(e.url()));
    assertThat(read).containsExactly("http://example.test/2");
    read.clear();
    CrawlLogReader.forEach(file, second + 3, e -> read.add(e.url()));
    assertThat(read).isEmpty();
  }

  private static long linesIn(Path file, long length) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    long lines = 0;
    for (int i = 0; i < length; i++) {
      lines += bytes[i] == '\n' ? 1 : 0;
    }
    return lines;
  }

  @Test
  void concurrentWorkersWriteWholeLines() throws Exception {
    Path file = dir.resolve("crawl.log");
    int threads = 8;
    int perThread = 500;
    try (CrawlLog log = new CrawlLog(file)) {
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        workers.add(Thread.ofPlatform().start(() -> {
          for (int i = 0; i < perThread; i++) {
            log.log(entry("http://example.test/" + thread + "/" + i));
          }
        }));
      }
      for (Thread worker : workers) {
        worker.join();
      }
    }

    Set<String> urls = new HashSet<>();
    for (CrawlLogEntry entry : CrawlLogReader.readAll(file)) {
      urls.add(entry.url());
    }
    assertThat(urls).hasSize(threads * perThread);
  }

  @Test
  void aLogThatCannotBeOpenedIsReportedNamingTheFile() throws IOException {
    Path notADirectory = Files.writeString(dir.resolve("file"), "x");
    assertThatThrownBy(() -> new CrawlLog(notADirectory.resolve("crawl.log")))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(notADirectory.resolve("crawl.log").toString());
  }

  @Test
  void loggingAfterCloseIsAProgrammingError() {
    CrawlLog log = new CrawlLog(dir.resolve("crawl.log"));
    log.close();
    log.close();
    assertThatThrownBy(() -> log.log(entry("http://example.test/")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("crawl.log");
  }
}
