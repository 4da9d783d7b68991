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
  /** A host of 2,000 labels made the host regex recurse once a label, to a StackOverflowError. */
  /** Escaped as UTF-8, a lone surrogate became '?' and started a query: "/\uD800sid=1" was "/?sid=1". */
  @Test
  void aLoneSurrogateIsReadAsTheReplacementCharacterNotAQuery() {
    UrlNormalizer normalizer = new UrlNormalizer(UrlNormalizer.Options.defaults());
    for (String raw : new String[] {"http://h.com/\uD800sid=1", "http://h.com/a\uDC00utm_source=x", "http://h.com/\uDC00\uD800"}) {
      UrlNormalization once = normalizer.normalize(raw);
      assertThat(once).as(raw).isInstanceOf(UrlNormalization.Accepted.class);
      String url = ((UrlNormalization.Accepted) once).url();
      assertThat(url).as(raw).doesNotContain("?").contains("%EF%BF%BD");
      assertThat(normalizer.normalize(url)).isEqualTo(once);
    }
  }

  @Test
  void aHostOfThousandsOfLabelsIsRejectedNotAStackOverflow() {
    for (String url : List.of("http://a_" + ".a".repeat(2000) + "/", "http://" + "\u00e9.".repeat(2000) + "com/",
        "http://" + "a".repeat(254) + "/")) {
      assertThat(normalizer.normalize(url)).as(url.substring(0, 30))
          .isInstanceOfSatisfying(UrlNormalization.Rejected.class,
              r -> assertThat(r.reason()).isEqualTo(UrlNormalization.Reason.MALFORMED));
    }
    assertThat(normalizer.normalize("http://" + "a".repeat(63) + "." + "b".repeat(63) + ".test/"))
        .isInstanceOf(UrlNormalization.Accepted.class);
  }

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
   * The shortcut for plain URLs never answers differently from the full normalization, whether
   * it returns its input as it is or fixes it (case, default port, empty path, fragment, empty
   * and stripped parameters): over the case table's inputs, generated web-like URLs, junk, and
   * URLs built to sit on the edges of the shortcut's shape, with a long and a short length limit.
   */
  @ParameterizedTest(name = "sortQuery={0}, maxLength={1}")
  @org.junit.jupiter.params.provider.CsvSource({"false, 2048", "true, 2048", "false, 64", "true, 64"})
  void theShortcutForPlainUrlsAgreesWithTheFullNormalization(boolean sortQuery, int maxLength) throws Exception {
    UrlNormalizer.Options options = new UrlNormalizer.Options(UrlNormalizer.Options.defaults().stripParameters(),
        sortQuery, maxLength);
    UrlNormalizer n = new UrlNormalizer(options);
    java.util.regex.Pattern strip = stripPatternOf(n);
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
    for (int i = 0; i < 12_000; i++) {
      inputs.add(i % 3 == 0 ? realLooking(random) : i % 3 == 1 ? edgeOfNormal(random) : junk(random));
    }
    int unchanged = 0;
    int fixed = 0;
    for (String input : inputs) {
      UrlNormalization full = n.normalizeTheLongWay(input);
      assertThat(n.normalize(input)).as("%s", input).isEqualTo(full);
      String quick = NormalFormShortcut.normalFormOf(input, maxLength, strip, sortQuery);
      if (quick != null) {
        assertThat(new Accepted(quick)).as("shortcut for %s", input).isEqualTo(full);
        if (quick == input) {
          unchanged++;
        } else {
          fixed++;
        }
      }
    }
    assertThat(unchanged).as("URLs already normal, returned as they are").isGreaterThan(300);
    assertThat(fixed).as("URLs the shortcut fixed").isGreaterThan(500);
  }

  /**
   * The common misspellings of a normal URL all come back to it, the quick way and the long
   * way alike: upper-case scheme or host, the default port, a fragment, stripped and empty
   * parameters anywhere in the query, and for a bare host an empty path.
   */
  @Test
  void commonMisspellingsOfANormalUrlComeBackToIt() {
    java.util.regex.Pattern strip = stripPatternOf(normalizer);
    SplittableRandom r = new SplittableRandom(31);
    int fixedQuickly = 0;
    for (int i = 0; i < 5_000; i++) {
      boolean https = r.nextBoolean();
      String host = pick(r, new String[] {"example.com", "www.example.org", "a-b.example.co.uk", "x9.example"});
      String port = r.nextInt(4) == 0 ? ":8080" : "";
      String path = r.nextInt(4) == 0 ? "/" : "/" + pick(r, new String[] {"a", "B/c.html", "d/", "~u/e_f-g"});
      List<String> kept = new java.util.ArrayList<>();
      for (int p = r.nextInt(3); p > 0; p--) {
        kept.add(pick(r, new String[] {"id=7", "q=x", "page=2", "lang", "v=a.b~c"}));
      }
      String query = String.join("&", kept);
      String normal = (https ? "https://" : "http://") + host + port + path + (query.isEmpty() ? "" : "?" + query);
      assertThat(normalizer.normalize(normal)).isEqualTo(new Accepted(normal));
      assertThat(NormalFormShortcut.normalFormOf(normal, 2048, strip, false)).as("already normal").isSameAs(normal);

      String scheme = https ? pick(r, new String[] {"https", "HTTPS", "Https"}) : pick(r, new String[] {"http", "HTTP", "hTTp"});
      String spelledHost = r.nextBoolean() ? host : r.nextBoolean() ? host.toUpperCase(java.util.Locale.ROOT)
          : Character.toUpperCase(host.charAt(0)) + host.substring(1);
      String spelledPort = !port.isEmpty() ? port : r.nextInt(3) == 0 ? (https ? ":443" : ":80") : "";
      String spelledPath = path.equals("/") && query.isEmpty() && r.nextBoolean() ? "" : path;
      List<String> parameters = new java.util.ArrayList<>(kept);
      for (int extra = r.nextInt(4); extra > 0; extra--) {
        parameters.add(r.nextInt(parameters.size() + 1),
            pick(r, new String[] {"utm_source=feed", "UTM_Medium=x", "gclid=1", "fbclid", "sid=9", "jsessionid=A", ""}));
      }
      String spelledQuery = parameters.isEmpty() && r.nextInt(4) > 0 ? "" : "?" + String.join("&", parameters);
      String fragment = r.nextBoolean() ? "" : pick(r, new String[] {"#", "#top", "#a?b=1", "#ü x", "#a#b"});
      String spelled = scheme + "://" + spelledHost + spelledPort + spelledPath + spelledQuery + fragment;

      assertThat(normalizer.normalize(spelled)).as("%s", spelled).isEqualTo(new Accepted(normal));
      assertThat(normalizer.normalizeTheLongWay(spelled)).as("%s the long way", spelled).isEqualTo(new Accepted(normal));
      if (NormalFormShortcut.normalFormOf(spelled, 2048, strip, false) != null) {
        fixedQuickly++;
      }
    }
    assertThat(fixedQuickly).as("every one of them is plain: the shortcut takes it").isEqualTo(5_000);
  }

  /** The normalizer's own strip pattern, so the shortcut is tested with exactly what it is given. */
  private static java.util.regex.Pattern stripPatternOf(UrlNormalizer n) {
    try {
      var field = UrlNormalizer.class.getDeclaredField("strip");
      field.setAccessible(true);
      return (java.util.regex.Pattern) field.get(n);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static final String[] EDGE_SCHEMES = {"http://", "https://", "HTTP://", "Https://", "hTTpS://", "httpſ://",
      "httpS:/", "http:", "htt://", "httpss://", "ht-tp://", "https:///"};
  private static final String[] EDGE_HOSTS = {"example.com", "a.b-c.example", "x", "a--b.example", "-a.example",
      "a-.example", "1.example", "example.1", "127.0.0.1", "xn--bcher-kva.example", "XN--bcher-kva.example",
      "EXAMPLE.com", "Www.Example.Com", "a..example", "example.com.", "Example.COM.", "a_b.example", "A_B.example",
      "e".repeat(64) + ".com", "E".repeat(63) + ".com", "e.example.K", "ex\u212Aample.com", "user@Example.com",
      "Example.com@x.example", "", "EXAMPLE.1"};
  private static final String[] EDGE_PORTS = {"", ":80", ":443", ":8080", ":0", ":08", ":080", ":65535", ":65536", ":",
      ":123456", ":00080", ":x"};
  private static final String[] EDGE_SEGMENTS = {"a", "B", ".", "..", "...", ".a", "a.", "~u", "_", "-", "", "a.html",
      "%7E", "a;b", "a:b", "a@b", "a+b", "a,b", "a!b", "a*b", "a'b", "a(b)", "a$b", "ü", "a b", "a\tb", "a\\b"};
  private static final String[] EDGE_PARAMS = {"a=1", "b=2", "a", "=", "=x", "x=", "a==b", "utm_source=x",
      "UTM_X=1", "utm_", "utm_=", "sid=2", "sidx=3", "xsid=4", "Sid", "gclid", "fbclid=a=b", "jsessionid=Z", "q=a~b",
      "q=a.b", "", "", "c=%41", "d=a+b", "e=a,b", "f=a/b", "g=a?b", "h=ü", "i=a b"};
  private static final String[] EDGE_FRAGMENTS = {"#", "#top", "#a#b", "#ü", "#/x?y", "# x ", "#\t", "#%zz",
      "#" + "f".repeat(80)};

  /** URLs near the shortcut's shape: mostly plain, each with a chance of one thing that is not. */
  private static String edgeOfNormal(SplittableRandom r) {
    StringBuilder url = new StringBuilder(r.nextInt(3) == 0 ? pick(r, EDGE_SCHEMES) : r.nextBoolean() ? "http://" : "https://");
    url.append(r.nextInt(3) == 0 ? pick(r, EDGE_HOSTS) : r.nextInt(4) == 0 ? "WWW.Example.com" : "www.example.com");
    url.append(r.nextInt(3) == 0 ? pick(r, EDGE_PORTS) : "");
    int segments = r.nextInt(5);
    if (segments == 0 && r.nextInt(4) > 0) {
      url.append('/');
    }
    for (int s = 0; s < segments; s++) {
      url.append('/').append(r.nextInt(3) == 0 ? pick(r, EDGE_SEGMENTS) : "page" + r.nextInt(50));
    }
    if (r.nextInt(5) == 0) {
      url.append("/").append("p".repeat(r.nextInt(30, 60)));   // near the short limit
    }
    if (r.nextInt(3) == 0) {
      url.append('?');
      int params = r.nextInt(5);
      for (int p = 0; p < params; p++) {
        url.append(p > 0 ? "&" : "").append(r.nextInt(2) == 0 ? pick(r, EDGE_PARAMS) : (char) ('a' + r.nextInt(26)) + "=" + r.nextInt(9));
      }
    }
    if (r.nextInt(4) == 0) {
      url.append(pick(r, EDGE_FRAGMENTS));
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
