package dev.crawler.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.ValueSource;

class CrawlLogEntryTest {
  private static final Instant TIME = Instant.parse("2025-05-01T12:00:00.123Z");

  @ParameterizedTest(name = "{5}")
  @CsvFileSource(resources = "crawlLogEntries.csv", delimiter = '|', nullValues = "<null>")
  void everyEntryComesBackFromItsLine(String time, CrawlOutcome outcome, int status, long bytes, long millis,
      String url, String via, String contentType, int depth, String detail, String urlAfter) {
    CrawlLogEntry entry = new CrawlLogEntry(Instant.parse(time), outcome, status, bytes, Duration.ofMillis(millis),
        url, via, contentType, depth, detail);

    String line = entry.format();
    CrawlLogEntry back = CrawlLogEntry.parse(line);

    assertThat(line).doesNotContain("\n", "\r", "\t", "\u00a0");
    assertThat(line.split(" +")[5]).isEqualTo(urlAfter);
    assertThat(back).isEqualTo(new CrawlLogEntry(Instant.parse(time), outcome, status, bytes,
        Duration.ofMillis(millis), urlAfter, via, contentType, depth, detail));
  }

  @Test
  void aLineHasItsColumnsInAFixedOrderAndADashForNone() {
    CrawlLogEntry fetched = new CrawlLogEntry(TIME, CrawlOutcome.FETCHED, 200, 18213, Duration.ofMillis(95),
        "https://example.test/a", "https://example.test/", "text/html", 2, null);
    CrawlLogEntry refused = new CrawlLogEntry(TIME, CrawlOutcome.CONNECTION_REFUSED, 0, 0, Duration.ofMillis(1),
        "http://127.0.0.1:1/", null, null, 0, "connect: refused");

    assertThat(fetched.format()).isEqualTo(
        "2025-05-01T12:00:00.123Z FETCHED            200      18213     95 https://example.test/a https://example.test/ text/html 2 -");
    assertThat(refused.format()).isEqualTo(
        "2025-05-01T12:00:00.123Z CONNECTION_REFUSED   -          0      1 http://127.0.0.1:1/ - - 0 connect: refused");
  }

  @Test
  void numbersAreAsciiDigitsWhateverTheLocale() {
    Locale saved = Locale.getDefault();
    Locale.setDefault(Locale.forLanguageTag("ar-SA"));   // formats with Arabic-Indic digits by default
    try {
      CrawlLogEntry fetched = new CrawlLogEntry(TIME, CrawlOutcome.FETCHED, 200, 18213, Duration.ofMillis(95),
          "https://example.test/a", null, "text/html", 2, null);
      assertThat(fetched.format()).contains("200      18213     95 ");
    } finally {
      Locale.setDefault(saved);
    }
  }

  @Test
  void aDetailWithLineBreaksStaysOnOneLineAndComesBack() {
    CrawlLogEntry entry = new CrawlLogEntry(TIME, CrawlOutcome.PROTOCOL_ERROR, 0, 0, Duration.ZERO,
        "http://example.test/", null, null, 0, "bad header:\r\n\tX-Evil: 1\\2");

    assertThat(entry.format()).endsWith(" bad header:\\r\\n\\tX-Evil: 1\\\\2").doesNotContain("\n");
    assertThat(CrawlLogEntry.parse(entry.format())).isEqualTo(entry);
  }

  @ParameterizedTest
  @ValueSource(strings = {"bad\u0000byte", "x\u0085", "trailing space ", " leading", "\u2028edge\u3000",
      "a \\u0041 literal", "\u007f\u0001\u001f", "-", "tab\tend\t"})
  void everyDetailComesBackExactly(String detail) {
    CrawlLogEntry entry = new CrawlLogEntry(TIME, CrawlOutcome.IO_ERROR, 0, 0, Duration.ZERO,
        "http://example.test/", null, null, 0, detail);

    assertThat(entry.format()).doesNotContain("\n", "\r", "\u0000", "\u0085");
    assertThat(CrawlLogEntry.parse(entry.format())).isEqualTo(entry);
  }

  @Test
  void theLogKeepsMillisecondsAndBlankTextsAreNone() {
    CrawlLogEntry entry = new CrawlLogEntry(Instant.parse("2025-05-01T12:00:00.123456789Z"), CrawlOutcome.FETCHED,
        200, 1, Duration.ofNanos(1_999_999), "http://example.test/", " ", "", 0, "  ");

    assertThat(entry.time()).isEqualTo(TIME);
    assertThat(entry.duration()).isEqualTo(Duration.ofMillis(1));
    assertThat(entry.via()).isNull();
    assertThat(entry.contentType()).isNull();
    assertThat(entry.detail()).isNull();
  }

  @Test
  void aLineCutByACrashIsRejectedNamingTheLine() {
    String cut = "2025-05-01T12:00:00.123Z FETCHED            200      18213     95 https://exa";
    assertThatThrownBy(() -> CrawlLogEntry.parse(cut))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("columns")
        .hasMessageContaining(cut);
    assertThatThrownBy(() -> CrawlLogEntry.parse("2025-05-01 FETCHED 200 1 1 http://a/ - - 0 -"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Not a crawl log line");
  }
}
