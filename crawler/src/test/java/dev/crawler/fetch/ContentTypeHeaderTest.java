package dev.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ContentTypeHeaderTest {
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(delimiter = '|', nullValues = "null", value = {
      // header                                   | type                   | charset
      "text/html                                  | text/html              | null",
      "TEXT/HTML; Charset=UTF-8                   | text/html              | UTF-8",
      "text/html ;charset=utf-8                   | text/html              | UTF-8",
      "text/html; charset=\"windows-1252\"          | text/html              | windows-1252",
      "text/html; charset=iso-8859-1; foo         | text/html              | ISO-8859-1",
      "text/html; charset=no-such-charset         | text/html              | null",
      "text/html; charset=\"\"                      | text/html              | null",
      "text/html; charset=utf-8; charset=latin1   | text/html              | UTF-8",
      "video/mp4; codecs                          | video/mp4              | null",
      "application/xhtml+xml                      | application/xhtml+xml  | null",
      // several values: the last valid one (WHATWG "extract a MIME type")
      "text/plain, text/html                      | text/html              | null",
      "text/html, nonsense                        | text/html              | null",
      "text/html, */*                             | text/html              | null",
      "*/*                                        | null                   | null",
      // quotes: separators inside them are text; a charset may be single-quoted too
      "text/plain; x=\"a,text/html;b\"             | text/plain             | null",
      "text/plain; x=\"a\\\"b,c\"; charset=utf-8   | text/plain             | UTF-8",
      "text/html; charset='iso-8859-1'            | text/html              | ISO-8859-1",
      // no type
      "html                                       | null                   | null",
      "text/                                      | null                   | null",
      "/html                                      | null                   | null",
      "text html/x                                | null                   | null",
  })
  void readsTheTypeAndCharsetOfEachHeader(String header, String type, String charset) {
    ContentTypeHeader parsed = ContentTypeHeader.parse(header);
    if (type == null) {
      assertThat(parsed).isNull();
      return;
    }
    assertThat(parsed.type()).isEqualTo(type);
    assertThat(parsed.charset()).isEqualTo(charset == null ? null : Charset.forName(charset));
  }

  @ParameterizedTest
  @CsvSource(value = {"''", "' '", "';'", "','", "';,;'"})
  void anEmptyHeaderHasNoType(String header) {
    assertThat(ContentTypeHeader.parse(header)).isNull();
    assertThat(ContentTypeHeader.parse(null)).isNull();
  }
}
