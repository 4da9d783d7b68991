package dev.crawler.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QueueByTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      # url                                        | by host                  | by domain
      https://www.example.com/a                    | www.example.com          | example.com
      https://docs.example.com:8443/b              | docs.example.com:8443    | example.com
      http://www.example.com:80/                   | www.example.com          | example.com
      https://shop.example.co.uk/                  | shop.example.co.uk       | example.co.uk
      https://example.co.uk/                       | example.co.uk            | example.co.uk
      # A private suffix: each user's site is a domain of its own, as in scope.mode: domain.
      https://alice.github.io/x                    | alice.github.io          | alice.github.io
      # An IP address is its own domain, whatever the port; IPv6 keeps its brackets.
      http://127.0.0.2:8080/                       | 127.0.0.2:8080           | 127.0.0.2
      http://[::1]:8443/                           | [::1]:8443               | [::1]
      # No public suffix (a loopback test name, an intranet host): the name is its own domain.
      http://intranet/                             | intranet                 | intranet
      """)
  void aUrlsQueueKeyIsItsHostOrItsRegisteredDomain(String url, String byHost, String byDomain) {
    assertThat(QueueBy.HOST.of(url)).isEqualTo(byHost);
    assertThat(QueueBy.DOMAIN.of(url)).isEqualTo(byDomain);
  }

  @ParameterizedTest
  @CsvSource({"mailto:a@example.com", "https:///path", "http://example.com:99999/"})
  void aUrlTheFrontierCannotTakeIsRefusedWithTheUrl(String url) {
    assertThatThrownBy(() -> QueueBy.DOMAIN.of(url)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(url);
  }
}
