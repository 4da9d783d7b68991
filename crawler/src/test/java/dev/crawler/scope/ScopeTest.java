package dev.crawler.scope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;

class ScopeTest {
  private static final List<String> SEEDS = List.of("http://www.example.com/", "http://blog.example.co.uk/",
      "http://foo.github.io/", "http://site.test:8080/", "http://127.0.0.1:8080/", "http://localhost/",
      "http://[::1]:9000/");
  private static final Pattern REPEAT = Pattern.compile("\\{(.)\\*(\\d+)}");

  @ParameterizedTest(name = "{0} {1} at depth {2}: {3}")
  @CsvFileSource(resources = "scope-verdicts.csv", delimiter = '|', quoteCharacter = '`', numLinesToSkip = 1,
      ignoreLeadingAndTrailingWhitespace = false)
  void eachUrlGetsTheVerdictOfItsFirstFailingCheck(ScopeMode mode, String url, int depth, ScopeVerdict verdict) {
    Scope scope = scope(mode, List.of(), List.of("\\.pdf$", "/private/"));
    assertThat(scope.check(url == null ? "" : expand(url), depth)).isEqualTo(verdict);
  }

  @Test
  void withIncludePatternsAUrlMustMatchOne() {
    Scope scope = scope(ScopeMode.SAME_HOST, List.of("/blog/", "/news/"), List.of("\\.pdf$"));
    assertThat(scope.check("http://www.example.com/blog/x", 1)).isEqualTo(ScopeVerdict.IN_SCOPE);
    assertThat(scope.check("http://www.example.com/x?from=/news/", 1)).isEqualTo(ScopeVerdict.IN_SCOPE);
    assertThat(scope.check("http://www.example.com/shop/x", 1)).isEqualTo(ScopeVerdict.NOT_INCLUDED);
    assertThat(scope.check("http://www.example.com/", 0)).isEqualTo(ScopeVerdict.NOT_INCLUDED);
    assertThat(scope.check("http://www.example.com/blog/x.pdf", 1)).isEqualTo(ScopeVerdict.EXCLUDED);
    assertThat(scope.check("http://off.example/blog/", 1)).isEqualTo(ScopeVerdict.OFF_SITE);
  }

  @Test
  void repeatedSegmentsAreFoundInLongPathsToo() {
    Scope scope = new Scope(new ScopeRules(ScopeMode.ANY, List.of(), List.of(), 5, 2048, 3, 20));
    StringBuilder distinct = new StringBuilder("http://example.com");
    for (int i = 0; i < 100; i++) {
      distinct.append('/').append(i);
    }
    assertThat(scope.check(distinct.toString(), 1)).isEqualTo(ScopeVerdict.IN_SCOPE);
    assertThat(scope.check(distinct + "/7/7/7", 1)).isEqualTo(ScopeVerdict.REPEATED_SEGMENTS);
    assertThat(scope.check(distinct + "/7/7", 1)).isEqualTo(ScopeVerdict.IN_SCOPE);
  }

  @Test
  void unlimitedDepthTakesAnyDepth() {
    Scope scope = new Scope(new ScopeRules(ScopeMode.ANY, List.of(), List.of(), Integer.MAX_VALUE, 2048, 3, 20));
    assertThat(scope.check("http://example.com/", Integer.MAX_VALUE)).isEqualTo(ScopeVerdict.IN_SCOPE);
  }

  @Test
  void withoutSeedsNothingIsOnSiteUnlessAnyHostIs() {
    assertThat(new Scope(rules(ScopeMode.SAME_DOMAIN, List.of(), List.of())).check("http://example.com/", 0))
        .isEqualTo(ScopeVerdict.OFF_SITE);
    assertThat(new Scope(rules(ScopeMode.ANY, List.of(), List.of())).check("http://example.com/", 0))
        .isEqualTo(ScopeVerdict.IN_SCOPE);
  }

  @Test
  void aSeedThatIsNoHttpUrlIsAProgrammerError() {
    Scope scope = new Scope(rules(ScopeMode.SAME_HOST, List.of(), List.of()));
    assertThatThrownBy(() -> scope.addSeed("example.com")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("example.com");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', textBlock = """
      http://example.com/|example.com
      http://Example.COM/a|example.com
      http://example.com:80/|example.com
      https://example.com:443/|example.com
      http://example.com:443/|example.com:443
      https://example.com:80/|example.com:80
      https://example.com:8443/x?y|example.com:8443
      http://example.com:/|example.com
      http://user:pw@example.com:8080/|example.com:8080
      http://[::1]:8080/|[::1]:8080
      http://[::1]/|[::1]
      http://127.0.0.1:80/|127.0.0.1
      """)
  void theHostKeyIsTheHostWithANonDefaultPort(String url, String hostKey) {
    assertThat(new Scope(rules(ScopeMode.ANY, List.of(), List.of())).hostKey(url)).isEqualTo(hostKey);
  }

  @Test
  void theHostKeyOfAUrlWithoutAHostIsAProgrammerError() {
    Scope scope = new Scope(rules(ScopeMode.ANY, List.of(), List.of()));
    assertThatThrownBy(() -> scope.hostKey("mailto:a@example.com")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mailto:a@example.com");
  }

  @Test
  void rulesNameTheBadValue() {
    assertThatThrownBy(() -> new ScopeRules(ScopeMode.ANY, List.of(), List.of(), -1, 100, 3, 4))
        .hasMessage("maxDepth (-1) must be >= 0");
    assertThatThrownBy(() -> new ScopeRules(ScopeMode.ANY, List.of(), List.of(), 1, 100, 0, 4))
        .hasMessage("maxRepeatedSegments (0) must be >= 1");
  }

  private static Scope scope(ScopeMode mode, List<String> include, List<String> exclude) {
    Scope scope = new Scope(rules(mode, include, exclude));
    SEEDS.forEach(scope::addSeed);
    return scope;
  }

  private static ScopeRules rules(ScopeMode mode, List<String> include, List<String> exclude) {
    return new ScopeRules(mode, include.stream().map(Pattern::compile).toList(),
        exclude.stream().map(Pattern::compile).toList(), 5, 100, 3, 4);
  }

  /** "{a*3}" becomes "aaa". */
  private static String expand(String url) {
    Matcher m = REPEAT.matcher(url);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, m.group(1).repeat(Integer.parseInt(m.group(2))));
    }
    return m.appendTail(out).toString();
  }
}
