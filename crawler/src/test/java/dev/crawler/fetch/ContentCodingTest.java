package dev.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import okhttp3.Headers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ContentCodingTest {
  @ParameterizedTest(name = "[{index}] Content-Encoding: {0}")
  @CsvSource(delimiter = '|', value = {
      "gzip              | true",
      "GZip              | true",
      "x-gzip            | true",
      "' gzip '          | true",
      "identity, gzip    | true",
      "deflate           | true",
      "Deflate           | true",
      "deflate, gzip     | false",
      "br                | false",
      "gzip, br          | false",
      "gzip, gzip        | false",
      "identity          | false",
      "''                | false",
  })
  void onlyABodyGzipdOrDeflatedOnceIsDecoded(String value, boolean decoded) {
    assertThat(ContentCoding.decodedByCrawler(Headers.of("Content-Encoding", value))).isEqualTo(decoded);
  }

  @Test
  void codingsSplitAcrossHeadersCountTogether() {
    assertThat(ContentCoding.decodedByCrawler(Headers.of("Content-Encoding", "gzip", "Content-Encoding", "gzip")))
        .isFalse();
    assertThat(ContentCoding.decodedByCrawler(Headers.of("Content-Encoding", "gzip", "Content-Encoding", "identity")))
        .isTrue();
    assertThat(ContentCoding.decodedByCrawler(Headers.of())).isFalse();
  }

  @Test
  void theCodingToDecodeIsNamed() {
    assertThat(ContentCoding.of(Headers.of("Content-Encoding", "x-gzip"))).isEqualTo(ContentCoding.GZIP);
    assertThat(ContentCoding.of(Headers.of("Content-Encoding", "deflate"))).isEqualTo(ContentCoding.DEFLATE);
    assertThat(ContentCoding.of(Headers.of("Content-Encoding", "br"))).isEqualTo(ContentCoding.AS_SENT);
    assertThat(ContentCoding.of(Headers.of())).isEqualTo(ContentCoding.AS_SENT);
  }
}
