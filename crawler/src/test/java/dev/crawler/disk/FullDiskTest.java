package dev.crawler.disk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.Crawl;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.crawl.StopReason;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Crawls into a real small filesystem (a tmpfs, see {@link SmallFilesystem}) until it is full:
 * the crawl must stop with one ERROR line that says so and what to do, lose nothing it had
 * accepted, and finish on {@code resume} once space is freed. The site's own request log is
 * the truth about what was fetched.
 */
class FullDiskTest {
  /** The tmpfs; most of it is taken by a filler file, deleted to "free space". */
  static final int FILESYSTEM_MB = 64;
  /** Pages of about 100 KB (about 23 KB in the WARC file): the site's 320 need about 7.5 MB. */
  static final DemoSiteSpec SITE = DemoSiteSpec.generated(4, 80).withPageShape(78, 100_000);
  @TempDir Path tmp;
  SmallFilesystem disk;
  DemoSite site;
  ListAppender<ILoggingEvent> events;

  @BeforeEach
  void mountASmallDiskAndStartTheSite() throws Exception {
    disk = SmallFilesystem.mount(tmp.resolve("small"), FILESYSTEM_MB);
    site = DemoSite.start(SITE);
    events = new ListAppender<>();
    events.start();
    rootLogger().addAppender(events);
  }

  @AfterEach
  void unmount() throws Exception {
    rootLogger().detachAppender(events);
    if (site != null) {
      site.close();
    }
    if (disk != null) {
      disk.close();
    }
  }

  @Test
  void aCrawlThatFillsItsDiskStopsWithOneErrorAndFinishesOnResumeOnceSpaceIsFreed() throws Exception {
    Path filler = disk.fillLeaving(3L << 20);
    Path dir = disk.root().resolve("crawl");

    StopReason first;
    try (Crawl crawl = open(dir, Crawl.Start.NEW, true)) {
      first = crawl.run();
    }
    assertThat(first).isEqualTo(StopReason.FAILED);
    assertThat(site.requests().countsByUrl()).as("the disk filled before the crawl could finish")
        .hasSizeLessThan(expected().size());
    assertOneDiskFullErrorAndNoStackTraces();

    Files.delete(filler);
    events.list.clear();
    try (Crawl crawl = open(dir, Crawl.Start.RESUME, true)) {
      assertThat(crawl.run()).isEqualTo(StopReason.FINISHED);
    }
    assertEveryExpectedUrlFetched();
    assertThat(errors()).isEmpty();
  }

  @Test
  void aCrawlWhoseDiskAnotherProgramFillsStopsOnItsStoreWritesAndResumes() throws Exception {
    // No WARC files and no crawl log: the next write that fails is one of the RocksDB stores' (or stats.json).
    Path dir = disk.root().resolve("crawl");
    Path filler;
    AtomicReference<StopReason> first = new AtomicReference<>();
    try (Crawl crawl = open(dir, Crawl.Start.NEW, false)) {
      Thread running = Thread.ofPlatform().start(() -> {
        try {
          first.set(crawl.run());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      while (crawl.stats().pages() < 40 && running.isAlive()) {
        Thread.sleep(5);
      }
      filler = disk.fillCompletely("other-program.bin");
      assertThat(crawl.awaitRunEnded(Duration.ofSeconds(60))).as("the crawl stopped").isTrue();
      running.join();
    }
    assertThat(first.get()).isEqualTo(StopReason.FAILED);
    assertOneDiskFullErrorAndNoStackTraces();

    Files.delete(filler);
    try (Crawl crawl = open(dir, Crawl.Start.RESUME, false)) {
      assertThat(crawl.run()).isEqualTo(StopReason.FINISHED);
    }
    assertEveryExpectedUrlFetched();
  }

  @Test
  void aNewCrawlThatCannotOpenOnAFullDiskLeavesNothingThatPassesForACrawl() throws Exception {
    Path filler = disk.fillLeaving(64L << 10);
    Path dir = disk.root().resolve("crawl");

    IOException e = catchThrowableOfType(IOException.class, () -> open(dir, Crawl.Start.NEW, true).close());
    assertThat(e).as("opening a crawl on a full disk").isNotNull();
    assertThat(e.getMessage()).startsWith("the disk is full: ").contains("nothing was started")
        .contains("free space on the disk of " + dir);
    assertThat(dir.resolve("frontier")).doesNotExist();
    assertThat(dir.resolve("seen")).doesNotExist();

    Files.delete(filler);
    try (Crawl crawl = open(dir, Crawl.Start.NEW, true)) {
      assertThat(crawl.stats().pages()).isZero();
      assertThat(crawl.seeds()).hasSize(SITE.hosts().size());
    }
  }

  private Crawl open(Path dir, Crawl.Start start, boolean records) throws Exception {
    String yaml = """
        status:
          listen: 127.0.0.1:0   # any free port: test crawls run side by side
        crawl:
          data-dir: '%s'
          user-agent:
            name: test-crawler
        politeness:
          default-delay: 0ms
        fetch:
          workers: 8
        scope:
          allow-private-addresses: true
        seen:
          expected-urls: 100_000
        output:
          warc: %s
          crawl-log: %s
        stats:
          interval: 500ms
        """.formatted(dir, records, records);
    CrawlConfig config = ConfigLoader.parse(yaml, "crawl.yaml", dir.getParent());
    return Crawl.open(config, start, CrawlEnvironment.standard().withDns(site.dns()).withSeeds(site.seeds()));
  }

  private Set<String> expected() {
    return site.expectedFetches(host -> true);
  }

  private void assertEveryExpectedUrlFetched() {
    Map<String, Long> fetched = site.requests().countsByUrl();
    assertThat(fetched.keySet()).as("URLs fetched by the two runs together").containsAll(expected());
  }

  private void assertOneDiskFullErrorAndNoStackTraces() {
    List<ILoggingEvent> errors = errors();
    assertThat(errors).as("ERROR lines").hasSize(1);
    assertThat(errors.get(0).getFormattedMessage()).startsWith("The disk is full: ")
        .contains("No space left on device")
        .contains("Free space on the disk of " + disk.root().resolve("crawl"))
        .endsWith("then continue with `bin/crawler resume --config crawl.yaml`.");
    assertThat(events.list).filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
        .allSatisfy(e -> assertThat(e.getThrowableProxy()).as("stack trace of: %s", e.getFormattedMessage()).isNull());
  }

  private List<ILoggingEvent> errors() {
    return events.list.stream().filter(e -> e.getLevel() == Level.ERROR).toList();
  }

  private static Logger rootLogger() {
    return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  }
}
