package dev.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LinkResolverTest {
  private static final String[] BASES = {"http://example.com/dir/page.html", "https://Example.COM:8443/a/b/?q=1",
      "http://user:pw@example.com:80/x", "http://[::1]:8080/", "https://example.com"};
  private static final String[] PIECES = {"/", "//", "a", "B", ".", "..", "?", "#", "&", "=", " ", "ü", "%20", "%",
      ":", "8080", "http://", "https://", "HTTP://", "example.com", "host-1.example", "@", "\\", "\t", "[", "]", ";",
      "~", "+", "x.html", "-"};

  /** The shortcut must give exactly what jsoup's resolution gives, or step aside. */
  @Test
  void theShortcutAgreesWithJsoupResolutionWheneverItAnswers() {
    SplittableRandom random = new SplittableRandom(20261202);
    int answered = 0;
    for (int i = 0; i < 50_000; i++) {
      LinkResolver resolver = new LinkResolver(BASES[random.nextInt(BASES.length)]);
      StringBuilder href = new StringBuilder(random.nextBoolean() ? "/" : random.nextBoolean() ? "http://" : "https://");
      for (int j = random.nextInt(8); j >= 0; j--) {
        href.append(PIECES[random.nextInt(PIECES.length)]);
      }
      String trimmed = href.toString().trim(); // as resolve() hands it over
      String shortcut = trimmed.isEmpty() ? null : resolver.resolveWithoutParsing(trimmed);
      if (shortcut != null) {
        answered++;
        assertThat(shortcut).as("href %s", trimmed).isEqualTo(resolver.resolveByParsing(trimmed));
      }
    }
    assertThat(answered).as("the shortcut answers the common shapes").isGreaterThan(10_000);
  }

  @Test
  void theShortcutTakesRootRelativePathsAndPlainAbsoluteUrls() {
    LinkResolver resolver = new LinkResolver("https://user@Example.com:8443/dir/page");
    assertThat(resolver.resolveWithoutParsing("/a b?c=d#e")).isEqualTo("https://Example.com:8443/a b?c=d");
    assertThat(resolver.resolveWithoutParsing("http://Other.example:81/x#y")).isEqualTo("http://Other.example:81/x");
    assertThat(resolver.resolveWithoutParsing("/a/../b")).isNull();
    assertThat(resolver.resolveWithoutParsing("//other.example/")).isNull();
    assertThat(resolver.resolveWithoutParsing("http://user@other.example/")).isNull();
    assertThat(resolver.resolveWithoutParsing("relative")).isNull();
  }
}
