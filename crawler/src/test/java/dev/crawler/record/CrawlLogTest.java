package dev.crawler.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    assertThat(Files.readAllLines(file)).extracting(line -> CrawlLogEntry.parse(line).url())
        .containsExactly("http://example.test/1", "http://example.test/2");
  }

  @Test
  void aLineCutByAKilledCrawlIsEndedBeforeTheNextOne() throws IOException {
    Path file = dir.resolve("crawl.log");
    Files.writeString(file, entry("http://example.test/1").format() + "\n2025-05-01T12:00:00.000Z FETCH");
    try (CrawlLog log = new CrawlLog(file)) {
      log.log(entry("http://example.test/2"));
    }

    List<String> lines = Files.readAllLines(file);
    assertThat(lines).hasSize(3);
    assertThat(lines.get(1)).isEqualTo("2025-05-01T12:00:00.000Z FETCH");
    assertThat(CrawlLogEntry.parse(lines.get(2)).url()).isEqualTo("http://example.test/2");
  }

  @Test
  void aLoggedLineIsInTheFileAtOnceSoAKilledCrawlLosesNone() throws IOException {
    Path file = dir.resolve("crawl.log");
    try (CrawlLog log = new CrawlLog(file)) {
      log.log(entry("http://example.test/1"));
      log.log(entry("http://example.test/2"));
      assertThat(Files.readAllLines(file)).extracting(line -> CrawlLogEntry.parse(line).url())
          .containsExactly("http://example.test/1", "http://example.test/2");
    }
  }

  @Test
  void flushMakesTheLinesReadableWhileTheLogIsOpen() throws IOException {
    Path file = dir.resolve("crawl.log");
    try (CrawlLog log = new CrawlLog(file)) {
      log.log(entry("http://example.test/1"));
      log.flush();
      assertThat(Files.readAllLines(file)).hasSize(1);
    }
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
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      urls.add(CrawlLogEntry.parse(line).url());
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
