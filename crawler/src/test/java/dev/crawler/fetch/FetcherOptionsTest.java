package dev.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.List;
import okhttp3.Dns;
import org.junit.jupiter.api.Test;

class FetcherOptionsTest {
  private static final Duration SECOND = Duration.ofSeconds(1);

  @Test
  void aNonAsciiUserAgentIsRefusedAtStartNotOnTheFirstRequest() {
    assertThatIllegalArgumentException().isThrownBy(() ->
        new FetcherOptions("robôt/1.0", SECOND, SECOND, SECOND, 1, 1, List.of("text/html"), false, Dns.SYSTEM));
  }

  @Test
  void aZeroTimeoutIsRefusedNamingIt() {
    assertThatIllegalArgumentException().isThrownBy(() ->
            new FetcherOptions("bot", SECOND, Duration.ZERO, SECOND, 1, 1, List.of("text/html"), false, Dns.SYSTEM))
        .withMessage("Read timeout (PT0S) must be positive");
  }

  @Test
  void aZeroCapIsRefusedNamingIt() {
    assertThatIllegalArgumentException().isThrownBy(() ->
            new FetcherOptions("bot", SECOND, SECOND, SECOND, 0, 1, List.of("text/html"), false, Dns.SYSTEM))
        .withMessage("Max content bytes (0) must be > 0");
  }

  @Test
  void aContentTypeThatIsNotAMediaRangeIsRefusedNamingIt() {
    assertThatIllegalArgumentException().isThrownBy(() ->
            new FetcherOptions("bot", SECOND, SECOND, SECOND, 1, 1, List.of("html"), false, Dns.SYSTEM))
        .withMessageContaining("(html)");
  }
}
