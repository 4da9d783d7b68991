package dev.crawler.robots;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.frontier.FrontierOptions;
import dev.crawler.frontier.internal.Politeness;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a robots.txt's Crawl-delay becomes: crawl-delays.csv, value by value, read as the robots
 * cache reads a robots.txt and spaced as the frontier spaces a host's requests.
 */
class CrawlDelayTest {
  private static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");
  private static final Politeness POLITENESS = new Politeness(FrontierOptions.builder()
      .defaultDelay(Duration.ofMillis(100)).maxCrawlDelay(Duration.ofSeconds(30)).build(), new Random(1));

  private final RobotsReader reader = new RobotsReader(null, "testbot", InstantSource.fixed(NOW), r -> { });

  /** One line of crawl-delays.csv. */
  record Row(String line, String read, long betweenRequests) {
    @Override
    public String toString() {
      return line;
    }
  }

  static Stream<Row> rows() throws IOException {
    List<Row> rows = new ArrayList<>();
    boolean header = true;
    try (InputStream in = Objects.requireNonNull(CrawlDelayTest.class.getResourceAsStream("crawl-delays.csv"))) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        if (header) {
          header = false;
          continue;
        }
        String[] c = line.split("\\|");
        assertThat(c).as(line).hasSize(3);
        rows.add(new Row(c[0].strip(), c[1].strip(), Long.parseLong(c[2].strip())));
      }
    }
    return rows.stream();
  }

  private HostRobots read(String robotsTxt, String contentType) {
    return reader.fromStored(new StoredRobots(HostRobots.Availability.FOUND, "http://site.test/robots.txt",
        contentType, robotsTxt.getBytes(StandardCharsets.UTF_8), NOW));
  }

  private HostRobots read(String robotsTxt) {
    return read(robotsTxt, "text/plain");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void everyValueEndsUpBetweenZeroAndTheCap(Row row) {
    HostRobots robots = read("User-agent: *\n" + row.line() + "\nDisallow: /private\n");

    Duration delay = robots.crawlDelay();
    switch (row.read()) {
      case "none" -> assertThat(delay).isNull();
      case "max" -> assertThat(delay).isEqualTo(Duration.ofMillis(Long.MAX_VALUE));
      default -> assertThat(delay).isEqualTo(Duration.ofMillis(Long.parseLong(row.read())));
    }
    long spacing = POLITENESS.delayMillis(delay == null ? -1 : Politeness.saturatedMillis(delay));
    assertThat(spacing).isEqualTo(row.betweenRequests()).isBetween(0L, 30_000L);
    // The rest of the group is read as before.
    assertThat(robots.isAllowed("http://site.test/private")).isFalse();
    assertThat(robots.isAllowed("http://site.test/public")).isTrue();
  }

  @Test
  void ourGroupsDelayWinsOverTheCatchAllsHoweverItIsWritten() {
    assertThat(read("User-agent: *\nCrawl-delay: 1e30\n\nUser-agent: TestBot\nCrawl-delay: 2s\n").crawlDelay())
        .isEqualTo(Duration.ofSeconds(2));
    assertThat(read("User-agent: TestBot\nCrawl-delay: 3000000000\n\nUser-agent: *\nCrawl-delay: 1\n").crawlDelay())
        .isEqualTo(Duration.ofSeconds(3_000_000_000L));
  }

  @Test
  void anotherAgentsDelayDoesNotApplyToUs() {
    assertThat(read("User-agent: OtherBot\nCrawl-delay: 1e30\n\nUser-agent: *\nDisallow: /x\n").crawlDelay()).isNull();
  }

  @Test
  void aRobotsTxtInUtf16IsReadAsCrawlerCommonsReadsIt() {
    byte[] text = "User-agent: *\r\nCrawl-delay: 1e30\r\nDisallow: /private\r\n".getBytes(StandardCharsets.UTF_16LE);
    byte[] withBom = new byte[text.length + 2];
    withBom[0] = (byte) 0xFF;
    withBom[1] = (byte) 0xFE;
    System.arraycopy(text, 0, withBom, 2, text.length);

    HostRobots robots = reader.fromStored(new StoredRobots(HostRobots.Availability.FOUND,
        "http://site.test/robots.txt", "text/plain", withBom, NOW));

    assertThat(robots.crawlDelay()).isEqualTo(Duration.ofMillis(Long.MAX_VALUE));
    assertThat(robots.isAllowed("http://site.test/private")).isFalse();
  }

  @Test
  void anHtmlRobotsTxtKeepsBeingReadAsHtml() {
    HostRobots robots = read("<html><body><p>User-agent: *<br>\n<p>Crawl-delay: 10s<br>\n<p>Disallow: /private<br>\n"
        + "</body></html>\n", "text/html");

    assertThat(robots.crawlDelay()).isEqualTo(Duration.ofSeconds(10));
    assertThat(robots.isAllowed("http://site.test/private")).isFalse();
  }

  @Test
  void aRobotsTxtWithoutCrawlDelayIsParsedFromItsOwnBytes() {
    byte[] body = "User-agent: *\nDisallow: /private\n".getBytes(StandardCharsets.UTF_8);
    assertThat(CrawlDelayLines.readable(body, "text/plain")).isSameAs(body);
  }
}
