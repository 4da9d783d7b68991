package dev.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.dedup.UrlNormalization;
import dev.crawler.dedup.UrlNormalizer;
import dev.crawler.url.CrawlUrl;
import dev.crawler.url.FetchableUrls;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The crawl reads links as the WHATWG URL Standard does, pinned by the standard's own test data
 * ({@code url-standard/urltestdata.json}): each input is resolved against its base as a page's
 * link is ({@link LinkResolver}), then normalized and checked as the intake does
 * ({@link UrlNormalizer}, {@link FetchableUrls}, {@link CrawlUrl}).
 *
 * <p>A case agrees when what the crawl would queue equals the standard's {@code href} put in the
 * crawl's normal form, so the changes the normalizer documents are allowed and nothing else: the
 * fragment and user info dropped, an empty query dropped, escapes of unreserved characters
 * decoded and hex upper-cased, unsafe characters (and a '%' that starts no escape) escaped, a
 * trailing dot of the host dropped. A case the standard rejects agrees when the crawl queues
 * nothing. The http(s) cases are those whose {@code href} is http or https, and the failures.
 * An empty or fragment-only href names the page itself, which the crawl does not follow again;
 * it is compared as the page's URL.
 */
class UrlStandardTest {
  /** The share of http(s) cases that must agree. */
  private static final double TARGET = 0.99;

  /**
   * URLs the standard takes that the crawl refuses, since no fetch could use them: port 0, and
   * hosts that are no DNS names (an empty label, punctuation). A change to this list is a change
   * of what the crawl refuses.
   */
  private static final List<String> REFUSED_BY_DESIGN = List.of(
      "http://f:0/c",
      "http://f:0/c",
      "http://./",
      "http://../",
      "http://!\"$&'()*+,-.;=_`{}~/",
      "http://foo.09../");

  private static final UrlNormalizer NORMALIZER = new UrlNormalizer(new UrlNormalizer.Options(List.of(), false, 2048));
  private static final List<Case> CASES = new ArrayList<>();

  private record Case(String input, String base, String href) {
    boolean failure() {
      return href == null;
    }

    boolean httpResult() {
      return href != null && (href.startsWith("http:") || href.startsWith("https:"));
    }

    @Override
    public String toString() {
      return "input " + visible(input) + " base " + base;
    }
  }

  @BeforeAll
  static void readTheStandardsTestData() throws IOException {
    try (InputStream in = UrlStandardTest.class.getResourceAsStream("url-standard/urltestdata.json")) {
      for (JsonNode node : new ObjectMapper().readTree(in)) {
        if (node.isObject()) {   // the others are comments
          String base = node.hasNonNull("base") ? node.get("base").asText() : null;
          String href = node.path("failure").asBoolean(false) ? null : node.get("href").asText();
          CASES.add(new Case(node.get("input").asText(), base, href));
        }
      }
    }
    assertThat(CASES).as("the standard's test cases").hasSizeGreaterThan(600);
  }

  @Test
  void atLeastNinetyNinePercentOfTheHttpCasesAgreeWithTheStandard() {
    int cases = 0;
    int agreeing = 0;
    List<String> disagreements = new ArrayList<>();
    for (Case c : CASES) {
      if (!c.failure() && !c.httpResult()) {
        continue;
      }
      cases++;
      String queued = queued(c);
      String expected = c.failure() ? null : normalForm(c.href());
      if (java.util.Objects.equals(queued, expected)) {
        agreeing++;
      } else {
        disagreements.add(c + ": standard " + (c.failure() ? "failure" : visible(c.href())) + ", normal form "
            + expected + ", queued " + queued);
      }
    }
    double share = (double) agreeing / cases;
    System.out.printf("URL Standard test data: %d of %d http(s) cases agree (%.1f%%)%n", agreeing, cases, 100 * share);
    disagreements.forEach(d -> System.out.println("  disagrees: " + d));
    assertThat(share).as("share agreeing; disagreements:%n%s", String.join("\n", disagreements))
        .isGreaterThanOrEqualTo(TARGET);
  }

  @Test
  void noInputTheStandardRejectsIsQueued() {
    Map<String, String> queued = new TreeMap<>();
    int failures = 0;
    for (Case c : CASES) {
      if (c.failure()) {
        failures++;
        String url = queued(c);
        if (url != null) {
          queued.put(c.toString(), url);
        }
      }
    }
    assertThat(failures).as("failures in the test data").isGreaterThan(200);
    assertThat(queued).as("inputs the standard rejects, queued").isEmpty();
  }

  @Test
  void noUrlOfAnotherSchemeBecomesAnHttpUrl() {
    Map<String, String> queued = new TreeMap<>();
    for (Case c : CASES) {
      if (!c.failure() && !c.httpResult() && queued(c) != null) {
        queued.put(c + " (standard " + c.href() + ")", queued(c));
      }
    }
    assertThat(queued).isEmpty();
  }

  @Test
  void theUrlsTheCrawlRefusesThoughTheStandardTakesThemAreTheListedOnes() {
    List<String> refused = new ArrayList<>();
    for (Case c : CASES) {
      if (c.httpResult() && normalForm(c.href()) == null) {
        refused.add(c.href());
      }
    }
    assertThat(refused).containsExactlyInAnyOrderElementsOf(REFUSED_BY_DESIGN);
  }

  @Test
  void theIssuesExamplesResolveAsBrowsersResolveThem() {
    String base = "http://example.org/foo/bar";
    assertThat(queued(new Case("http:example.com/", base, null))).isEqualTo("http://example.org/foo/example.com/");
    assertThat(queued(new Case("https:/example.com/", base, null))).isEqualTo("https://example.com/");
    assertThat(queued(new Case("\\\\other.example\\a\\b", base, null))).isEqualTo("http://other.example/a/b");
    assertThat(queued(new Case(" \u0001ht\ttp://ex\nample.com/a\u001f ", base, null))).isEqualTo("http://example.com/a");
    assertThat(queued(new Case("http://0xffffffff", base, null))).isEqualTo("http://255.255.255.255/");
    assertThat(queued(new Case("http://192.0x00A80001", base, null))).isEqualTo("http://192.168.0.1/");
    assertThat(queued(new Case("//faß.ExAmPlE/", base, null))).isEqualTo("http://xn--fa-hia.example/");
    for (String refused : List.of("http://1.2.3.4.5", "http://256.256.256.256", "http://foo.09",
        "http://a.b.c.xn--pokxncvks", "http://a\u0001b/", "http://a%01b/")) {
      assertThat(queued(new Case(refused, base, null))).as(visible(refused)).isNull();
    }
  }

  /** What the intake would queue for the case's input found on a page at its base, or null. */
  private static String queued(Case c) {
    LinkResolver resolver = new LinkResolver(c.base() == null ? "" : c.base());
    String resolved = resolver.resolve(c.input());
    if (resolved == null && isSelfReference(c.input())) {
      resolved = c.base();
    }
    return resolved == null ? null : normalForm(resolved);
  }

  private static boolean isSelfReference(String href) {
    String trimmed = href.trim().replaceAll("[\t\n\r]", "");
    return trimmed.isEmpty() || trimmed.startsWith("#");
  }

  /** The URL as the intake would queue it, or null if it would refuse it. */
  private static String normalForm(String url) {
    if (url == null) {
      return null;
    }
    return FetchableUrls.confirm(NORMALIZER.normalize(url)) instanceof UrlNormalization.Accepted(String normal)
        && CrawlUrl.of(normal) != null ? normal : null;
  }

  /** Control and non-ASCII characters as \\uXXXX, so a failure message shows them. */
  private static String visible(String s) {
    StringBuilder out = new StringBuilder();
    for (char ch : s.toCharArray()) {
      out.append(ch < 0x20 || ch > 0x7e ? String.format("\\u%04x", (int) ch) : String.valueOf(ch));
    }
    return out.toString();
  }
}
