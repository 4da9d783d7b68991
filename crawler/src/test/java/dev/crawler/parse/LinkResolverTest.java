package dev.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.dedup.UrlNormalization;
import dev.crawler.dedup.UrlNormalizer;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LinkResolverTest {
  private static final String[] BASES = {"http://example.com/dir/page.html", "https://Example.COM:8443/a/b/?q=1",
      "http://user:pw@example.com:80/x", "http://[::1]:8080/", "https://example.com", "http://example.com/a/b/c/d.html",
      "http://example.com/a/./b/../c/", "http://example.com/a%20b/c d/e?f#g"};
  /** How an href starts: root-relative, absolute, or relative (climbing or not). */
  private static final String[] STARTS = {"/", "http://", "https://", "", "../", "./", "../../", "../../../../", "./../"};
  private static final String[] PIECES = {"/", "//", "a", "B", ".", "..", "?", "#", "&", "=", " ", "ü", "%20", "%",
      ":", "8080", "http://", "https://", "HTTP://", "example.com", "host-1.example", "@", "\\", "\t", "[", "]", ";",
      "~", "+", "x.html", "-"};

  private static final UrlNormalizer NORMALIZER = new UrlNormalizer(new UrlNormalizer.Options(List.of(), false, 2048));

  /**
   * The shortcut must lead to the URL the full resolution leads to, or step aside. Compared in
   * normal form: the shortcut leaves escaping and the host's case to the normalizer.
   */
  @Test
  void theShortcutAgreesWithTheFullResolutionWheneverItAnswers() {
    SplittableRandom random = new SplittableRandom(20261202);
    int answered = 0;
    int answeredRelative = 0;
    for (int i = 0; i < 50_000; i++) {
      LinkResolver resolver = new LinkResolver(BASES[random.nextInt(BASES.length)]);
      StringBuilder href = new StringBuilder(STARTS[random.nextInt(STARTS.length)]);
      for (int j = random.nextInt(8); j >= 0; j--) {
        href.append(PIECES[random.nextInt(PIECES.length)]);
      }
      String trimmed = href.toString().trim(); // as resolve() hands it over
      String shortcut = trimmed.isEmpty() ? null : resolver.resolveWithoutParsing(trimmed);
      if (shortcut != null) {
        answered++;
        answeredRelative += trimmed.charAt(0) != '/' && !trimmed.startsWith("http") ? 1 : 0;
        assertThat(normalForm(shortcut)).as("href %s", trimmed).isEqualTo(normalForm(resolver.resolveByParsing(trimmed)));
      }
    }
    assertThat(answered).as("the shortcut answers the common shapes").isGreaterThan(10_000);
    assertThat(answeredRelative).as("relative paths among them").isGreaterThan(2_000);
  }

  @Test
  void theShortcutTakesRootRelativePathsAndPlainAbsoluteUrls() {
    LinkResolver resolver = new LinkResolver("https://user@Example.com:8443/dir/page");
    assertThat(resolver.resolveWithoutParsing("/a-b?c=d#e")).isEqualTo("https://example.com:8443/a-b?c=d");
    assertThat(resolver.resolveWithoutParsing("/a b?c=d ")).as("a space: the parse escapes it").isNull();
    assertThat(resolver.resolveWithoutParsing("http://Other.example:81/x#y")).isEqualTo("http://Other.example:81/x");
    assertThat(resolver.resolveWithoutParsing("/a/../b")).isNull();
    assertThat(resolver.resolveWithoutParsing("//other.example/")).isNull();
    assertThat(resolver.resolveWithoutParsing("http://user@other.example/")).isNull();
    assertThat(resolver.resolveWithoutParsing("mailto:someone")).isNull();
  }

  @Test
  void theShortcutTakesRelativePathsThatClimbNoHigherThanTheRoot() {
    LinkResolver resolver = new LinkResolver("http://example.com/docs/api/page-1.html?x=1");
    assertThat(resolver.resolveWithoutParsing("page-3.html#top")).isEqualTo("http://example.com/docs/api/page-3.html");
    assertThat(resolver.resolveWithoutParsing("../guide/page-3.html?a=b")).isEqualTo("http://example.com/docs/guide/page-3.html?a=b");
    assertThat(resolver.resolveWithoutParsing("../../")).isEqualTo("http://example.com/");
    assertThat(resolver.resolveWithoutParsing("./")).isEqualTo("http://example.com/docs/api/");
    assertThat(resolver.resolveWithoutParsing("../../../up.html")).as("above the root").isNull();
    assertThat(resolver.resolveWithoutParsing("a/../b")).as("a dot segment after the start").isNull();
    assertThat(resolver.resolveWithoutParsing("?q=2")).as("a query alone").isNull();
  }

  private static String normalForm(String url) {
    return url != null && NORMALIZER.normalize(url) instanceof UrlNormalization.Accepted(String normal) ? normal : null;
  }
}
