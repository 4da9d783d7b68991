package dev.crawler.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DemoSiteSpecTest {

  @Test
  void theDemoHasThreeSeedHostsAndOneReachableOnlyByLinks() {
    DemoSiteSpec demo = DemoSiteSpec.demo();
    assertThat(demo.hosts()).extracting(DemoHost::name)
        .containsExactly("www.example.com", "docs.example.com", "slow.example.com", "www.example.org");
    assertThat(demo.hosts()).extracting(DemoHost::seed).containsExactly(true, true, true, false);
    assertThat(demo.hosts().get(2).crawlDelay()).isEqualTo(Duration.ofSeconds(1));
    assertThat(demo.linksPerPage()).isEqualTo(78);
    assertThat(demo.pageBytes()).isEqualTo(19_000);
  }

  @Test
  void generatedSitesArePlainSeedHosts() {
    DemoSiteSpec spec = DemoSiteSpec.generated(3, 50);
    assertThat(spec.hosts()).containsExactly(DemoHost.plain("site-1.example.com", 50),
        DemoHost.plain("site-2.example.com", 50), DemoHost.plain("site-3.example.com", 50));
    assertThat(spec.totalPages()).isEqualTo(150);
  }

  @Test
  void aSpecNamesWhatIsWrongWithIt() {
    DemoHost a = DemoHost.plain("a.example.com", 1);
    assertThatThrownBy(() -> new DemoSiteSpec(List.of(a, a)))
        .hasMessage("Host a.example.com is listed twice");
    assertThatThrownBy(() -> new DemoSiteSpec(List.of(new DemoHost("a.example.com", 1, null, List.of(), false, false))))
        .hasMessage("At least one host must be a seed; none of [a.example.com] is");
    assertThatThrownBy(() -> new DemoSiteSpec(List.of(a)).withPageShape(5, 1000))
        .hasMessage("Links per page (5) must be >= 10");
    assertThatThrownBy(() -> DemoHost.plain("a.example.com", 0)).hasMessage("Pages of a.example.com (0) must be >= 1");
    assertThatThrownBy(() -> new DemoHost("a.example.com", 60_000, null, List.of(), true))
        .hasMessageStartingWith("Pages of a.example.com (60000) must be <= 50000 for it to have a sitemap");
  }

  @ParameterizedTest(name = "[{index}] '{0}'")
  @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
      # host names: lower-case DNS names only, since the site matches Host headers by name
      Www.Example.com
      www.example.com.
      -bad.example.com
      www_example.com
      ""
      """)
  void aHostNameMustBeALowerCaseDnsName(String name) {
    assertThatThrownBy(() -> DemoHost.plain(name, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be a lower-case DNS name");
  }

  @ParameterizedTest(name = "[{index}] '{0}'")
  @CsvSource(delimiter = '|', textBlock = """
      # Disallow prefixes: plain paths only, the prefix match that expectedFetches models
      private/
      /private/*.html
      /private$
      /a b
      /a#b
      """)
  void aDisallowPrefixMustBeAPlainPath(String prefix) {
    assertThatThrownBy(() -> new DemoHost("a.example.com", 1, null, List.of(prefix), false))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be a path such as /private/");
  }
}
