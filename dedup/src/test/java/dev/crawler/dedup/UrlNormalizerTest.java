package dev.crawler.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.dedup.UrlNormalization.Accepted;
import dev.crawler.dedup.UrlNormalization.Reason;
import dev.crawler.dedup.UrlNormalization.Rejected;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class UrlNormalizerTest {
  private final UrlNormalizer normalizer = new UrlNormalizer(UrlNormalizer.Options.defaults());

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvFileSource(resources = "normalized-urls.csv", delimiter = '|', quoteCharacter = '`', numLinesToSkip = 1,
      ignoreLeadingAndTrailingWhitespace = false, nullValues = "\u0000")
  void eachUrlHasOneSpelling(String input, String expected) {
    UrlNormalization result = normalizer.normalize(input == null ? "" : input);
    if (expected.startsWith("REJECT:")) {
      assertThat(result).isInstanceOf(Rejected.class);
      assertThat(((Rejected) result).reason()).isEqualTo(Reason.valueOf(expected.substring(7)));
    } else {
      assertThat(result).isEqualTo(new Accepted(expected));
    }
  }

  @Test
  void sortingTheQueryIsAnOptionAndKeepsEqualNamesInOrder() {
    UrlNormalizer sorting = new UrlNormalizer(new UrlNormalizer.Options(List.of(), true, 2048));
    assertThat(sorting.normalize("http://example.com/?b=2&a=1&b=1&utm_x=3"))
        .isEqualTo(new Accepted("http://example.com/?a=1&b=2&b=1&utm_x=3"));
  }

  @Test
  void urlsLongerThanTheLimitAreRejectedBeforeAndAfterNormalizing() {
    UrlNormalizer short64 = new UrlNormalizer(new UrlNormalizer.Options(List.of(), false, 64));
    String path = "a".repeat(60);
    assertThat(short64.normalize("http://example.com/" + path)).isInstanceOf(Rejected.class)
        .extracting(r -> ((Rejected) r).reason()).isEqualTo(Reason.TOO_LONG);
    assertThat(short64.normalize("http://example.com/" + "x".repeat(10_000)))
        .extracting(r -> ((Rejected) r).detail()).asString().contains("10019 characters").hasSizeLessThan(300);
  }

  /**
   * The properties every input keeps, over generated URLs that look like the web's and
   * over random junk: no exception, and normalizing twice changes nothing.
   */
  @Test
  void normalizingIsIdempotentAndNeverThrows() {
    SplittableRandom random = new SplittableRandom(20261130);
    int accepted = 0;
    for (int i = 0; i < 30_000; i++) {
      String input = i % 5 == 4 ? junk(random) : realLooking(random);
      UrlNormalization once = normalizer.normalize(input);
      if (once instanceof Accepted(String url)) {
        accepted++;
        assertThat(normalizer.normalize(url)).as("normalizing %s twice", input).isEqualTo(once);
        assertThat(url).matches("https?://[^/?#]+/.*").doesNotContain("#");
      }
    }
    assertThat(accepted).as("most generated URLs are valid").isGreaterThan(12_000);
  }

  /**
   * The shortcut for URLs already in normal form never answers differently from the full
   * normalization: over the case table's inputs, generated web-like URLs, junk, and URLs built
   * to sit on the edges of the shortcut's shape.
   */
  @ParameterizedTest(name = "sortQuery={0}")
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void theNormalFormShortcutAgreesWithTheFullNormalization(boolean sortQuery) throws Exception {
    UrlNormalizer n = new UrlNormalizer(new UrlNormalizer.Options(UrlNormalizer.Options.defaults().stripParameters(),
        sortQuery, 2048));
    List<String> inputs = new java.util.ArrayList<>();
    try (var in = getClass().getResourceAsStream("normalized-urls.csv")) {
      for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
        int bar = line.indexOf('|');
        if (bar > 0 && !line.startsWith("#")) {
          inputs.add(line.substring(0, bar).replace("`", ""));
        }
      }
    }
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 9_000; i++) {
      inputs.add(i % 3 == 0 ? realLooking(random) : i % 3 == 1 ? edgeOfNormal(random) : junk(random));
    }
    int shortcuts = 0;
    for (String input : inputs) {
      UrlNormalization fast = n.normalize(input);
      UrlNormalization full = n.normalizeTheLongWay(input);
      assertThat(fast).as("%s", input).isEqualTo(full);
      if (fast instanceof Accepted(String url) && input.startsWith(url)
          && (url.length() == input.length() || input.charAt(url.length()) == '#')) {
        shortcuts++;
      }
    }
    assertThat(shortcuts).as("URLs already normal").isGreaterThan(600);
  }

  private static final String[] EDGE_HOSTS = {"example.com", "a.b-c.example", "x", "a--b.example", "-a.example",
      "a-.example", "1.example", "example.1", "127.0.0.1", "xn--bcher-kva.example", "EXAMPLE.com", "a..example",
      "example.com.", "a_b.example", "e" .repeat(64) + ".com", "e".repeat(63) + ".com"};
  private static final String[] EDGE_PORTS = {"", ":80", ":443", ":8080", ":0", ":08", ":65535", ":65536", ":", ":123456"};
  private static final String[] EDGE_SEGMENTS = {"a", "B", ".", "..", "...", ".a", "a.", "~u", "_", "-", "", "a.html",
      "%7E", "a;b", "a:b", "a@b", "a+b", "a,b", "a!b", "a*b", "a'b", "a(b)", "a$b", "ü"};
  private static final String[] EDGE_PARAMS = {"a=1", "b=2", "a", "=", "=x", "x=", "a==b", "utm_source=x",
      "UTM_X=1", "sid=2", "sidx=3", "gclid", "q=a~b", "q=a.b", "", "c=%41", "d=a+b", "e=a,b", "f=a/b", "g=a?b"};

  /** URLs near the shortcut's shape: mostly plain, each with a chance of one thing that is not. */
  private static String edgeOfNormal(SplittableRandom r) {
    StringBuilder url = new StringBuilder(r.nextInt(8) == 0 ? "HTTP://" : r.nextBoolean() ? "http://" : "https://");
    url.append(r.nextInt(3) == 0 ? pick(r, EDGE_HOSTS) : "www.example.com");
    url.append(r.nextInt(3) == 0 ? pick(r, EDGE_PORTS) : "");
    int segments = r.nextInt(5);
    if (segments == 0 && r.nextInt(4) > 0) {
      url.append('/');
    }
    for (int s = 0; s < segments; s++) {
      url.append('/').append(r.nextInt(3) == 0 ? pick(r, EDGE_SEGMENTS) : "page" + r.nextInt(50));
    }
    if (r.nextInt(3) == 0) {
      url.append('?');
      int params = r.nextInt(4);
      for (int p = 0; p < params; p++) {
        url.append(p > 0 ? "&" : "").append(r.nextInt(2) == 0 ? pick(r, EDGE_PARAMS) : (char) ('a' + r.nextInt(26)) + "=" + r.nextInt(9));
      }
    }
    if (r.nextInt(5) == 0) {
      url.append(pick(r, new String[] {"#", "#top", "#a#b", "#ü", "#/x?y"}));
    }
    return url.toString();
  }

  private static final String[] SCHEMES = {"http", "https", "HTTP", "Https", "ftp", "mailto", "javascript"};
  private static final String[] HOSTS = {"example.com", "WWW.Example.ORG", "münchen.de", "127.0.0.1", "[::1]",
      "xn--bcher-kva.example", "sub.domain.co.uk.", "a-b.c_d.example", "ex%41mple.com", "host"};
  private static final String[] SEGMENTS = {"a", "B", ".", "..", "%7e", "%7E", "%2f", "%zz", "%", "ü", "a b",
      "index.html", "x;jsessionid=1", "p;v=1", "~user", "%C3%BC", "&", "=", "+", "'", "\"", "<>", "^", "{x}", "|"};
  private static final String[] PARAMS = {"a=1", "utm_source=x", "B=2", "q=a b", "q=%7e%3D", "sid=3", "x", "=",
      "", "c=ü", "d=%", "e=1=2", "gclid", "f=a+b", "g=[1]"};

  private static String realLooking(SplittableRandom r) {
    StringBuilder url = new StringBuilder(pick(r, SCHEMES)).append("://");
    if (r.nextInt(10) == 0) {
      url.append("user:pw@");
    }
    url.append(pick(r, HOSTS));
    if (r.nextInt(4) == 0) {
      url.append(':').append(pick(r, new String[] {"80", "443", "8080", "0", "65535"}));
    }
    int segments = r.nextInt(6);
    for (int s = 0; s < segments; s++) {
      url.append('/').append(pick(r, SEGMENTS));
    }
    if (r.nextBoolean()) {
      url.append('/');
    }
    if (r.nextInt(3) == 0) {
      url.append('?');
      int params = r.nextInt(5);
      for (int p = 0; p < params; p++) {
        url.append(p > 0 ? "&" : "").append(pick(r, PARAMS));
      }
    }
    if (r.nextInt(5) == 0) {
      url.append('#').append(pick(r, SEGMENTS));
    }
    return url.toString();
  }

  private static String junk(SplittableRandom r) {
    StringBuilder s = new StringBuilder(r.nextBoolean() ? "http://" : "");
    int length = r.nextInt(40);
    for (int i = 0; i < length; i++) {
      s.append(r.nextInt(3) == 0 ? (char) r.nextInt(0x3000) : "/:?#&=%.[]@;\\ aZ09ü\t".charAt(r.nextInt(20)));
    }
    return s.toString();
  }

  private static String pick(SplittableRandom r, String[] options) {
    return options[r.nextInt(options.length)];
  }
}
