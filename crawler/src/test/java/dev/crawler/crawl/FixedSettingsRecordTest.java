package dev.crawler.crawl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.dedup.UrlNormalizer;
import dev.crawler.queue.QueueBy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The settings a resume may not change, read back from the crawl folder (the whole crawl: ResumeStateTest). */
class FixedSettingsRecordTest {
  @TempDir Path dir;

  private static final UrlNormalizer.Options SPELLING = UrlNormalizer.Options.defaults();
  private static final UrlNormalizer.Options SORTING =
      new UrlNormalizer.Options(SPELLING.stripParameters(), true, SPELLING.maxLength());

  @Test
  void aCrawlBegunByHostIsWrittenAsTheBuildBeforeWroteIt() throws Exception {
    FixedSettingsRecord.write(dir, SPELLING, QueueBy.HOST);
    assertThat(Files.readAllLines(dir.resolve(FixedSettingsRecord.FILE))).hasSize(3)
        .noneMatch(line -> line.startsWith("politeness."));
    FixedSettingsRecord.check(dir, SPELLING, QueueBy.HOST, "crawl.yaml");   // no error
  }

  @Test
  void aCrawlBegunByDomainResumesByDomainOnly() throws Exception {
    FixedSettingsRecord.write(dir, SPELLING, QueueBy.DOMAIN);
    FixedSettingsRecord.check(dir, SPELLING, QueueBy.DOMAIN, "crawl.yaml");   // no error
    assertThatThrownBy(() -> FixedSettingsRecord.check(dir, SPELLING, QueueBy.HOST, "crawl.yaml"))
        .isInstanceOf(CrawlStartException.class)
        .hasMessageContaining("politeness.queue-by: host (the crawl began with domain)")
        .hasMessageContaining("a site would be fetched by both at once");
  }

  @Test
  void aCrawlBegunByAddressResumesByAddressOnly() throws Exception {
    FixedSettingsRecord.write(dir, SPELLING, QueueBy.IP);
    FixedSettingsRecord.check(dir, SPELLING, QueueBy.IP, "crawl.yaml");   // no error
    assertThatThrownBy(() -> FixedSettingsRecord.check(dir, SPELLING, QueueBy.DOMAIN, "crawl.yaml"))
        .isInstanceOf(CrawlStartException.class)
        .hasMessageContaining("politeness.queue-by: domain (the crawl began with ip)");
  }

  /** Builds before the record queued by host: a folder without it may not resume by domain. */
  @Test
  void aCrawlWithoutARecordWasQueuedByHost() throws Exception {
    assertThatThrownBy(() -> FixedSettingsRecord.check(dir, SPELLING, QueueBy.DOMAIN, "crawl.yaml"))
        .isInstanceOf(CrawlStartException.class)
        .hasMessageContaining("politeness.queue-by: domain (the crawl began with host)");
    assertThat(dir.resolve(FixedSettingsRecord.FILE)).as("a refused resume records nothing").doesNotExist();

    FixedSettingsRecord.check(dir, SPELLING, QueueBy.HOST, "crawl.yaml");
    assertThat(Files.readString(dir.resolve(FixedSettingsRecord.FILE)))
        .isEqualTo(FixedSettingsRecord.describe(SPELLING, QueueBy.HOST));
  }

  @Test
  void bothKindsOfChangeAreNamedWithWhatEachWouldDo() throws Exception {
    FixedSettingsRecord.write(dir, SPELLING, QueueBy.HOST);
    assertThatThrownBy(() -> FixedSettingsRecord.check(dir, SORTING, QueueBy.DOMAIN, "crawl.yaml"))
        .isInstanceOf(CrawlStartException.class)
        .hasMessageContaining("normalize.sort-query: true (the crawl began with false)")
        .hasMessageContaining("politeness.queue-by: domain (the crawl began with host)")
        .hasMessageContaining("every page already fetched would pass as new")
        .hasMessageContaining("a site would be fetched by both at once");
    assertThat(List.of(FixedSettingsRecord.describe(SORTING, QueueBy.DOMAIN).split("\n"))).hasSize(4);
  }
}
