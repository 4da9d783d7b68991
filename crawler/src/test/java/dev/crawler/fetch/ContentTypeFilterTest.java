package dev.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ContentTypeFilterTest {
  @ParameterizedTest(name = "{0} accepts {1}: {2}")
  @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
      # accepted patterns            | content type          | read?
      text/html                      | text/html             | true
      text/html                      | text/plain            | false
      text/html                      | application/xhtml+xml | false
      text/html,application/xhtml+xml | application/xhtml+xml | true
      text/*                         | text/plain            | true
      text/*                         | text/html             | true
      text/*                         | texts/html            | false
      text/*                         | application/pdf       | false
      */*                            | application/pdf       | true
      TEXT/HTML                      | text/html             | true
      ' text/html '                  | text/html             | true
      # a response that names no type is read: sniffing is the parser's job
      text/html                      | null                  | true
      """)
  void aTypeIsReadWhenAPatternMatchesIt(String patterns, String contentType, boolean accepted) {
    ContentTypeFilter filter = new ContentTypeFilter(List.of(patterns.split(",")));

    assertThat(filter.accepts(contentType)).isEqualTo(accepted);
  }

  @ParameterizedTest(name = "{index}: {0}")
  @ValueSource(strings = {"", "html", "*/html", "text/ html", "text/html; charset=utf-8", "text/**"})
  void aPatternThatIsNotAMediaRangeIsRefusedWithItsValue(String pattern) {
    assertThatIllegalArgumentException().isThrownBy(() -> new ContentTypeFilter(List.of(pattern)))
        .withMessageContaining("(" + pattern + ")");
  }
}
