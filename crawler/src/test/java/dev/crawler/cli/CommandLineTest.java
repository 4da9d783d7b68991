package dev.crawler.cli;

import dev.crawler.crawl.CrawlerVersion;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.config.ConfigDocs;
import dev.crawler.config.ConfigLoader;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
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
  void configCheckWarnsAboutTheSeedsACrawlWouldRefuse() throws IOException {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), "http://127.0.0.1:9/\nmailto:someone@example.org\n");
    Path file = Files.writeString(dir.resolve("crawl.yaml"), """
        crawl:
          seeds: '%s'
          user-agent:
            name: test-crawler
        """.formatted(seeds));

    Result result = run("config", "--check", file.toString());

    assertThat(result.exitCode()).isZero();
    assertThat(result.err()).contains(
        "warning: seed on line 1 of " + seeds + " would be refused: 127.0.0.1 is a private address"
            + " (set scope.allow-private-addresses: true to crawl it)",
        "warning: seed on line 2 of " + seeds + " is not a crawlable http(s) URL: mailto:someone@example.org");
  }

  @Test
  void aResumeOfAFinishedCrawlSaysItIsFinishedAndFetchesNothing() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    AtomicInteger requests = new AtomicInteger();
    server.createContext("/", exchange -> {
      requests.incrementAndGet();
      byte[] body = "<html><body>one page</body></html>".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/html");
      exchange.sendResponseHeaders(exchange.getRequestURI().getPath().equals("/robots.txt") ? 404 : 200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    try {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"),
          "http://127.0.0.1:" + server.getAddress().getPort() + "/\n");
      Path file = Files.writeString(dir.resolve("crawl.yaml"), """
          crawl:
            data-dir: '%s'
            seeds: '%s'
            user-agent:
              name: test-crawler
          politeness:
            default-delay: 10ms
          scope:
            allow-private-addresses: true
          """.formatted(dir.resolve("data"), seeds));
      assertThat(run("crawl", "--config", file.toString()).out()).contains("Crawl ended: the frontier is empty.");
      int requestsOfTheCrawl = requests.get();

      Result resume = run("resume", "--config", file.toString());

      assertThat(resume.exitCode()).isZero();
      assertThat(resume.out()).startsWith("Nothing to resume: the crawl in " + dir.resolve("data")
          + " is finished (its frontier is empty, 1 pages requested).");
      assertThat(requests.get()).isEqualTo(requestsOfTheCrawl);
    } finally {
      server.stop(0);
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
