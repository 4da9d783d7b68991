package dev.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import okhttp3.Headers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RetryAfterTest {
  private static final Instant NOW = Instant.parse("2015-10-21T07:27:00Z");

  @ParameterizedTest(name = "Retry-After: {0}")
  @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
      # header value                      | seconds from now, null when unusable
      # RFC 9110 10.2.3 delay-seconds
      120                                 | 120
      0                                   | 0
      ' 30 '                              | 30
      # IMF-fixdate, and the obsolete RFC 850 and asctime forms
      Wed, 21 Oct 2015 07:28:00 GMT       | 60
      Wednesday, 21-Oct-15 07:28:00 GMT   | 60
      Wed Oct 21 07:28:00 2015            | 60
      # a date in the past means now
      Wed, 21 Oct 2015 07:00:00 GMT       | 0
      # unusable
      -5                                  | null
      1.5                                 | null
      soon                                | null
      99999999999999999999                | null
      ''                                  | null
      """)
  void retryAfterIsSecondsOrAnHttpDate(String value, Long expectedSeconds) {
    Duration wait = RetryAfter.parse(Headers.of("Retry-After", value), NOW);

    assertThat(wait).isEqualTo(expectedSeconds == null ? null : Duration.ofSeconds(expectedSeconds));
  }

  /** OkHttp keeps control characters in values it reads; one that trimmed to nothing threw, and a 503 became IO_ERROR. */
  @Test
  void aValueOfControlCharactersIsNoWait() {
    Headers control = new Headers.Builder().addUnsafeNonAscii("Retry-After", "\u0001").build();

    assertThat(RetryAfter.parse(control, NOW)).isNull();
  }

  @Test
  void noHeaderIsNoWait() {
    assertThat(RetryAfter.parse(Headers.EMPTY, NOW)).isNull();
  }
}
