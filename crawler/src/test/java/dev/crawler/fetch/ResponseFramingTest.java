package dev.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import okhttp3.Headers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ResponseFramingTest {
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(delimiter = '|', textBlock = """
      # response headers (';' between headers)               | framing
      # RFC 9112 6.3 item 6: one length frames the body
      Content-Length: 10                                       | CLEAR
      Content-Length: 0                                        | CLEAR
      Content-Type: text/html                                  | CLEAR
      # item 5: repeats of one value stand for it
      Content-Length: 10; Content-Length: 10                   | CLEAR
      Content-Length: 10, 10                                   | CLEAR
      # item 5: values that disagree, or no length at all: an unrecoverable error
      Content-Length: 30; Content-Length: 10                   | BROKEN
      Content-Length: 10, 30                                   | BROKEN
      Content-Length: abc                                      | BROKEN
      Content-Length: -5                                       | BROKEN
      Content-Length: +5                                       | BROKEN
      Content-Length: 1 0                                      | BROKEN
      Content-Length: 10,                                      | BROKEN
      Content-Length: 99999999999999999999                     | BROKEN
      # items 3 and 4: chunked alone frames the body; anything else beside it does not as OkHttp reads it
      Transfer-Encoding: chunked                               | CLEAR
      Transfer-Encoding: Chunked                               | CLEAR
      Transfer-Encoding: chunked; Content-Length: 10           | DOUBTFUL
      Transfer-Encoding: gzip, chunked                         | DOUBTFUL
      Transfer-Encoding: identity                              | DOUBTFUL
      Transfer-Encoding: chunked; Transfer-Encoding: chunked   | DOUBTFUL
      """)
  void theHeadersSayWhetherTheBodyEndsWhereOkHttpThinks(String lines, ResponseFraming expected) {
    Headers.Builder headers = new Headers.Builder();
    for (String line : lines.split(";")) {
      String[] nameAndValue = line.split(":", 2);
      headers.add(nameAndValue[0].strip(), nameAndValue[1].strip());
    }
    assertThat(ResponseFraming.of(headers.build())).isEqualTo(expected);
  }
}
