package dev.crawler.cli;

import dev.crawler.crawl.CrawlerVersion;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.config.ConfigDocs;
import dev.crawler.config.ConfigLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandLineTest {
  /** Maven runs tests in the module's folder; the README and examples are one level up. */
  private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();

  @TempDir Path dir;

  record Result(int exitCode, String out, String err) {}

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = CrawlerCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void versionPrintsTheBuildVersion() {
    Result result = run("--version");
    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).startsWith("crawler " + CrawlerVersion.version()).doesNotContain("${");
  }

  @Test
  void configDefaultsPrintsTheDocumentedDefaults() {
    Result result = run("config", "--defaults");
    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo(ConfigDocs.defaultsYaml());
  }

  @Test
  void configCheckPrintsTheEffectiveConfigurationOfAValidFile() throws IOException {
    Path file = Files.writeString(dir.resolve("crawl.yaml"), "fetch:\n  workers: 8\n");
    Result result = run("config", "--check", file.toString());
    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).contains("  workers: 8   # default: 32");
    assertThat(result.err()).contains("crawl.user-agent.name: is not set");
  }

  @Test
  void configCheckOfAnInvalidFileExitsWithTwoAndNamesTheLine() throws IOException {
    Path file = Files.writeString(dir.resolve("crawl.yaml"), "fetch:\n  workers: 0\n");
    Result result = run("config", "--check", file.toString());
    assertThat(result.exitCode()).isEqualTo(ExitCode.BAD_USAGE);
    assertThat(result.err()).isEqualTo("Configuration error:\n  " + file
        + ":2: fetch.workers: \"0\" is below 1; allowed: a whole number from 1 to 100_000\n");
    assertThat(result.out()).isEmpty();
  }

  /** 10^11 URLs at 1% is a filter of about 120 GB: more than any test JVM's heap. */
  @Test
  void aFilterLargerThanTheHeapStopsTheCrawlBeforeItCreatesAnything() throws IOException {
    Path data = dir.resolve("data");
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), "http://127.0.0.1:9/\n");
    Path file = Files.writeString(dir.resolve("crawl.yaml"), """
        status:
          listen: 127.0.0.1:0   # any free port: test crawls run side by side
        crawl:
          data-dir: '%s'
          seeds: '%s'
          user-agent:
            name: test-crawler
        seen:
          expected-urls: 100_000_000_000
        """.formatted(data, seeds));
    Result result = run("crawl", "--config", file.toString());
    assertThat(result.exitCode()).isEqualTo(ExitCode.BAD_USAGE);
    assertThat(result.err()).startsWith("error: the URL-seen filter and its memory of recent URLs need")
        .contains("CRAWLER_JAVA_OPTS=-Xmx").doesNotContain("Exception").doesNotContain("\tat ");
    assertThat(data).doesNotExist();
  }

  @Test
  void aMissingCommandOrOptionIsBadUsage() {
    assertThat(run().exitCode()).isEqualTo(ExitCode.BAD_USAGE);
    assertThat(run("config").exitCode()).isEqualTo(ExitCode.BAD_USAGE);
    assertThat(run("config", "--defaults", "--check", "x.yaml").exitCode()).isEqualTo(ExitCode.BAD_USAGE);
    Result unknown = run("crawll");
    assertThat(unknown.exitCode()).isEqualTo(ExitCode.BAD_USAGE);
    assertThat(unknown.err()).contains("crawll");
  }

  @Test
  void everyCommandHasHelpThatListsTheExitCodes() {
    for (String[] args : new String[][] {{"--help"}, {"config", "--help"}}) {
      Result result = run(args);
      assertThat(result.exitCode()).isZero();
      assertThat(result.out()).contains("Usage:").contains("Exit codes:");
    }
  }

  @Test
  void theReadmeQuotesTheDefaultsAsTheyArePrinted() throws IOException {
    String readme = Files.readString(PROJECT.resolve("README.md"));
    Matcher block = Pattern.compile("<!-- config-defaults:start -->\n```yaml\n(.*?)```\n<!-- config-defaults:end -->",
        Pattern.DOTALL).matcher(readme);
    assertThat(block.find()).as("README.md has the defaults between config-defaults markers").isTrue();
    assertThat(block.group(1))
        .as("README.md's configuration reference is stale: paste the output of 'bin/crawler config --defaults'")
        .isEqualTo(ConfigDocs.defaultsYaml());
  }

  @Test
  void theExampleConfigurationIsValidAndReadyToCrawl() {
    var config = ConfigLoader.load(PROJECT.resolve("examples/crawl.yaml"));
    config.requireReadyToCrawl();
    assertThat(config.crawl().seeds()).exists();
  }
}
