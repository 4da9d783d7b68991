package dev.crawler.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class ConfigErrorsTest {
  private static final Path BASE = Path.of("/crawls");

  @ParameterizedTest(name = "[{index}] {1}")
  @CsvFileSource(resources = "errors.csv", delimiter = '|', quoteCharacter = '`', numLinesToSkip = 1)
  void eachErrorNamesTheKeyTheLineAndWhatIsAllowed(String yaml, String expected) {
    ConfigException e = catchThrowableOfType(ConfigException.class,
        () -> ConfigLoader.parse(yaml.replace("\\n", "\n"), "crawl.yaml", BASE));
    assertThat(e).as("no error for %s", yaml).isNotNull();
    assertThat(e.getMessage()).isEqualTo(expected);
  }

  @Test
  void everyProblemInAFileIsReportedAtOnce() {
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse("""
        fetch:
          workers: 0
        politeness:
          default-delay: -2s
        """, "crawl.yaml", BASE));
    assertThat(e.problems()).extracting(ConfigProblem::line, ConfigProblem::path)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(2, "fetch.workers"),
            org.assertj.core.groups.Tuple.tuple(4, "politeness.default-delay"));
  }

  @Test
  void aYamlSyntaxErrorNamesItsLine() {
    ConfigException e = catchThrowableOfType(ConfigException.class,
        () -> ConfigLoader.parse("fetch:\n  workers: 8\n timeouts: [\n", "crawl.yaml", BASE));
    assertThat(e.problems()).hasSize(1);
    assertThat(e.problems().get(0).line()).isBetween(2, 4);
    assertThat(e.getMessage()).startsWith("crawl.yaml:").contains("YAML syntax error: ");
  }

  @Test
  void aYamlSyntaxErrorSaysWhatIsWrongNotOnlyWhereItWas() {
    ConfigException e = catchThrowableOfType(ConfigException.class,
        () -> ConfigLoader.parse("fetch:\n  workers: 8\npoliteness: [1, 2\ncrawl:\n  data-dir: x\n", "crawl.yaml", BASE));
    assertThat(e.problems()).singleElement().satisfies(p -> {
      assertThat(p.message()).isEqualTo("YAML syntax error: while parsing a flow sequence: expected ',' or ']', but got :");
      assertThat(p.line()).isEqualTo(4);
    });
  }

  @Test
  void aCrawlNeedsAUserAgentName() {
    assertThatThrownBy(() -> CrawlConfig.defaults().requireReadyToCrawl())
        .isInstanceOf(ConfigException.class)
        .hasMessage("defaults: crawl.user-agent.name: is not set; a crawl must name itself to the servers it "
            + "visits, such as 'examplebot' (letters, '-' and '_')");
    CrawlConfig empty = ConfigLoader.parse("crawl:\n  user-agent:\n    name: ''\n", "crawl.yaml", BASE);
    assertThatThrownBy(empty::requireReadyToCrawl)
        .hasMessageStartingWith("crawl.yaml:3: crawl.user-agent.name: is empty; a crawl must name itself");
  }

  @Test
  void aMissingFileIsAClearError() {
    assertThatThrownBy(() -> ConfigLoader.load(Path.of("/no/such/crawl.yaml")))
        .isInstanceOf(ConfigException.class).hasMessage("/no/such/crawl.yaml: no such file");
  }
}
