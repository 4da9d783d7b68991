package dev.crawler.stats;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.crawler.frontier.FrontierStats;
import dev.crawler.record.CrawlLog;
import dev.crawler.record.CrawlLogEntry;
import dev.crawler.record.CrawlOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class StatsReporterTest {
  @TempDir Path dir;

  private final Logger statsLogger = (Logger) LoggerFactory.getLogger("dev.crawler.stats");
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

  /** A clock the test moves: one second a reading, so rates are whole numbers. */
  private final AtomicLong seconds = new AtomicLong();
  private final InstantSource clock = () -> Instant.EPOCH.plusSeconds(seconds.getAndIncrement());

  @BeforeEach
  void captureTheStatsLog() {
    logged.start();
    statsLogger.addAppender(logged);
  }

  @AfterEach
  void stopCapturing() {
    statsLogger.detachAppender(logged);
  }

  private List<String> messages() {
    synchronized (logged.list) {
      return logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }
  }

  @Test
  void everyIntervalTheReporterLogsOneLineAndWritesTheStatsFile() throws Exception {
    CrawlStats stats = new CrawlStats();
    stats.page(CrawlOutcome.FETCHED, 200, 1000);
    Path json = dir.resolve("stats.json");
    try (StatsReporter reporter = new StatsReporter(stats, () -> StatsLineTest.FRONTIER, () -> StatsLineTest.VERIFY,
        json, Duration.ofMillis(20), InstantSource.system())) {
      reporter.start();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while ((!Files.exists(json) || messages().size() < 2) && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(messages()).hasSizeGreaterThanOrEqualTo(2).allMatch(line -> line.startsWith("pages 1 (+"));
      assertThat(logged.list.get(0).getLevel()).hasToString("INFO");
      assertThat(StatsSnapshot.readFrom(json).pages()).isEqualTo(1);
    }
  }

  /** A kill before the first interval must not lose this run's crawl-log lines from the totals. */
  @Test
  void startWritesStatsJsonAtOnceNamingTheCrawlLogLength() throws Exception {
    Path json = dir.resolve("stats.json");
    try (CrawlLog log = new CrawlLog(dir.resolve("crawl.log"))) {
      CrawlStats stats = new CrawlStats();
      stats.countWith(log);
      CrawlLogEntry line = new CrawlLogEntry(Instant.EPOCH, CrawlOutcome.FETCHED, 200, 10, Duration.ofMillis(5),
          "http://example.test/", null, "text/html", 0, null);
      log.log(line, () -> stats.page(CrawlOutcome.FETCHED, 200, 10));
      StatsReporter reporter = new StatsReporter(stats, null, null, json, Duration.ofHours(1), clock);
      reporter.start();
      StatsSnapshot written = StatsSnapshot.readFrom(json);
      assertThat(written.pages()).isEqualTo(1);
      assertThat(written.crawlLogBytes()).isEqualTo(Files.size(dir.resolve("crawl.log")));
      reporter.close();
    }
  }

  @Test
  void closeWritesTheFinalNumbersAndLogsTheSummary() {
    CrawlStats stats = new CrawlStats();
    Path json = dir.resolve("stats.json");
    StatsReporter reporter = new StatsReporter(stats, null, null, json, Duration.ofHours(1), clock);
    reporter.start();
    stats.page(CrawlOutcome.FETCHED, 200, 1000);
    stats.page(CrawlOutcome.TIMEOUT, 0, 0);

    reporter.close();
    reporter.close();

    assertThat(StatsSnapshot.readFrom(json).pages()).isEqualTo(2);
    assertThat(messages()).containsExactly(
        "Crawl summary: 2 pages requested in 1s, avg 2.0 pages/s, 1000 B kept, 2xx 100% 3xx 0% 4xx 0% 5xx 0%",
        "  FETCHED                         1   50.0%",
        "  TIMEOUT                         1   50.0%",
        "  failures: none (no 4xx or 5xx answer, no request without one)",
        "  links 0: new 0, dup 0, out of scope 0; robots.txt fetches 0");
  }

  @Test
  void theLineRatesAreOverTheLastReportAndTheRunWithoutTheRestoredTotals() {
    CrawlStats stats = new CrawlStats();
    stats.restore(new StatsSnapshot(1_000, 0, null, null, null, 0));
    StatsReporter reporter = new StatsReporter(stats, null, null, null, Duration.ofHours(1), clock); // t=0
    for (int i = 0; i < 30; i++) {
      stats.page(CrawlOutcome.FETCHED, 200, 0);
    }
    reporter.report(); // t=1: 30 pages this run
    for (int i = 0; i < 10; i++) {
      stats.page(CrawlOutcome.FETCHED, 200, 0);
    }

    assertThat(reporter.line()).startsWith("pages 1,040 (+10/s, avg 20/s) |"); // t=2
    reporter.close();
  }

  @Test
  void theRunsRatesStartWhenTheReporterStartsNotWhenItIsMade() {
    CrawlStats stats = new CrawlStats();
    StatsReporter reporter = new StatsReporter(stats, null, null, null, Duration.ofHours(1), clock); // t=0
    seconds.set(100);   // a million seeds queued meanwhile
    reporter.start();   // t=100
    for (int i = 0; i < 30; i++) {
      stats.page(CrawlOutcome.FETCHED, 200, 0);
    }

    assertThat(reporter.line()).startsWith("pages 30 (+30/s, avg 30/s) |"); // t=101, not 30 pages in 101 s
    reporter.close();
  }

  @Test
  void eachLineEndsWithWhatTheTailSaysThen() {
    StatsReporter reporter = new StatsReporter(new CrawlStats(), null, null, null, Duration.ofHours(1), clock);
    AtomicInteger owned = new AtomicInteger(3);
    reporter.endedWith(() -> " | partitions " + owned.get());
    assertThat(reporter.line()).startsWith("pages 0 ").endsWith(" | partitions 3");
    owned.set(5);
    assertThat(reporter.line()).endsWith(" | partitions 5");
    reporter.close();
  }

  @Test
  void aFrontierThatCannotAnswerLeavesItsSegmentOut() {
    Supplier<FrontierStats> closedFrontier = () -> {
      throw new IllegalStateException("frontier is closed");
    };
    StatsReporter reporter = new StatsReporter(new CrawlStats(), closedFrontier, null, null, Duration.ofHours(1), clock);

    assertThat(reporter.line()).doesNotContain("frontier").contains("| links 0:");
    reporter.close();
  }

  @Test
  void aStatsFileThatCannotBeWrittenIsAWarningNotAFailure() throws Exception {
    Path notADirectory = Files.writeString(dir.resolve("file"), "x");
    StatsReporter reporter = new StatsReporter(new CrawlStats(), null, null, notADirectory.resolve("stats.json"),
        Duration.ofHours(1), clock);

    reporter.report();
    reporter.report();
    reporter.close();

    assertThat(logged.list).filteredOn(e -> e.getLevel().toString().equals("WARN")).hasSize(1)
        .first().extracting(ILoggingEvent::getFormattedMessage).asString()
        .contains("Cannot write stats file " + notADirectory.resolve("stats.json"));
  }
}
