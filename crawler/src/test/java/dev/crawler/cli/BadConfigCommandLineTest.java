package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every class of configuration error, and every crawl that cannot start, through the real
 * command line: exit code 2, a message that says what is wrong and where, and nothing created.
 * The configuration errors are the config module's own table, read where it lives, so the two
 * modules cannot drift apart.
 */
class BadConfigCommandLineTest {
  /** Maven runs tests in the module's folder; the project is one level up. */
  private static final String ERRORS_CSV = "../config/src/test/resources/dev/crawler/config/errors.csv";

  /** A configuration a crawl can start with; the tests break one thing at a time. */
  private static final String GOOD = """
      crawl:
        data-dir: crawl-data
        seeds: seeds.txt
        user-agent:
          name: test-crawler
      """;

  @TempDir Path dir;

  record Result(int exitCode, String out, String err) {}

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = CrawlerCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Result(code, out.toString(), err.toString());
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @CsvFileSource(files = ERRORS_CSV, delimiter = '|', quoteCharacter = '`', numLinesToSkip = 1)
  void eachConfigurationErrorStopsCrawlAndResumeWithExitCodeTwoAndItsLine(String yaml, String message)
      throws IOException {
    Path file = Files.writeString(dir.resolve("crawl.yaml"), yaml.replace("\\n", "\n"));
    String expected = "Configuration error:\n  " + message.replaceFirst("^crawl\\.yaml:", file + ":") + "\n";
    for (String command : List.of("crawl", "resume")) {
      Result result = run(command, "--config", file.toString());
      assertThat(result.exitCode()).as(command).isEqualTo(ExitCode.BAD_USAGE);
      assertThat(result.err()).as(command).isEqualTo(expected);
      assertThat(result.out()).as(command).isEmpty();
    }
    assertNothingCreatedBeside(file);
  }

  @Test
  void aConfigurationWithoutAUserAgentNameIsRefusedBeforeAnythingIsCreated() throws IOException {
    Path file = Files.writeString(dir.resolve("crawl.yaml"), "fetch:\n  workers: 8\n");
    Result result = run("crawl", "--config", file.toString());
    assertThat(result.exitCode()).isEqualTo(ExitCode.BAD_USAGE);
    assertThat(result.err()).startsWith("Configuration error:\n  " + file + ": crawl.user-agent.name: is not set");
    assertNothingCreatedBeside(file);
  }

  @Test
  void aConfigurationFileThatDoesNotExistIsBadUsage() {
    Path missing = dir.resolve("no-such.yaml");
    Result result = run("crawl", "--config", missing.toString());
    assertThat(result.exitCode()).isEqualTo(ExitCode.BAD_USAGE);
    assertThat(result.err()).isEqualTo("Configuration error:\n  " + missing + ": no such file\n");
  }

  @Test
  void aCrawlFolderThatIsAFileIsBadUsageWithAReason() throws IOException {
    Path file = Files.writeString(dir.resolve("crawl.yaml"), GOOD);
    Files.writeString(dir.resolve("seeds.txt"), "https://www.example.com/\n");
    Files.writeString(dir.resolve("crawl-data"), "a file where the folder should be");
    Result result = run("crawl", "--config", file.toString());
    assertThat(result.exitCode()).isEqualTo(ExitCode.BAD_USAGE);
    assertThat(result.err()).isEqualTo("error: cannot use " + dir.resolve("crawl-data")
        + " as the crawl folder (crawl.data-dir): a file is in the way (" + dir.resolve("crawl-data") + ")\n");
  }

  @Test
  void aCrawlFolderUnderAFileIsBadUsageWithAReason() throws IOException {
    Path file = Files.writeString(dir.resolve("crawl.yaml"), GOOD.replace("data-dir: crawl-data", "data-dir: a-file/sub"));
    Files.writeString(dir.resolve("seeds.txt"), "https://www.example.com/\n");
    Files.writeString(dir.resolve("a-file"), "not a folder");
    Result result = run("crawl", "--config", file.toString());
    assertThat(result.exitCode()).isEqualTo(ExitCode.BAD_USAGE);
    assertThat(result.err()).startsWith("error: cannot use " + dir.resolve("a-file/sub")
        + " as the crawl folder (crawl.data-dir): ").doesNotContain("\tat ");
  }

  @Test
  void crawlOnAFolderThatHoldsACrawlSaysToResumeIt() throws IOException {
    Path file = Files.writeString(dir.resolve("crawl.yaml"), GOOD);
    Files.writeString(dir.resolve("seeds.txt"), "https://www.example.com/\n");
    Files.createDirectories(dir.resolve("crawl-data/frontier"));
    Result result = run("crawl", "--config", file.toString());
    assertThat(result.exitCode()).isEqualTo(ExitCode.BAD_USAGE);
    assertThat(result.err()).isEqualTo("error: " + dir.resolve("crawl-data") + " already holds a crawl: continue it "
        + "with `bin/crawler resume --config " + file + "`, or set crawl.data-dir to another folder to start afresh\n");
    try (Stream<Path> data = Files.list(dir.resolve("crawl-data"))) {
      assertThat(data).containsExactly(dir.resolve("crawl-data/frontier"));
    }
  }

  @Test
  void resumeOnAFolderWithoutACrawlSaysToStartOne() throws IOException {
    Path file = Files.writeString(dir.resolve("crawl.yaml"), GOOD);
    Result result = run("resume", "--config", file.toString());
    assertThat(result.exitCode()).isEqualTo(ExitCode.BAD_USAGE);
    assertThat(result.err()).isEqualTo("error: nothing to resume in " + dir.resolve("crawl-data")
        + ": start a crawl with `bin/crawler crawl --config " + file + "`\n");
    assertNothingCreatedBeside(file);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      # the file named by crawl.seeds, and the one given with --seeds
      crawl.seeds        | 
      --seeds            | --seeds
      """)
  void aSeedFileThatDoesNotExistIsNamedAndNothingIsCreated(String which, String option) throws IOException {
    Path file = Files.writeString(dir.resolve("crawl.yaml"), GOOD);
    Path seeds = option == null ? dir.resolve("seeds.txt") : dir.resolve("other-seeds.txt");
    List<String> args = new ArrayList<>(List.of("crawl", "--config", file.toString()));
    if (option != null) {
      args.addAll(List.of(option, seeds.toString()));
    }
    Result result = run(args.toArray(String[]::new));
    assertThat(result.exitCode()).isEqualTo(ExitCode.BAD_USAGE);
    assertThat(result.err()).isEqualTo("error: seed file " + seeds + " does not exist; set crawl.seeds or pass "
        + "--seeds FILE\n");
    assertNothingCreatedBeside(file);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      # seed file contents (\\n for a line break) | what the message adds
      only URLs the crawler cannot fetch | `ftp://example.com/\\nmailto:a@example.com\\nnot a url`  | ``
      only comments and blank lines      | `# seeds\\n\\n   \\n`                                       | ` (it has none)`
      an empty file                      | ``                                                          | ` (it has none)`
      """)
  void aSeedFileWithoutOneUsableUrlIsRefusedAndNothingIsCreated(String what, String contents, String none)
      throws IOException {
    Path file = Files.writeString(dir.resolve("crawl.yaml"), GOOD);
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), contents.replace("\\n", "\n"));
    Result result = run("crawl", "--config", file.toString());
    assertThat(result.exitCode()).isEqualTo(ExitCode.BAD_USAGE);
    assertThat(result.err()).isEqualTo("error: no usable seed URL in " + seeds + none + ": give at least one "
        + "http(s) URL, one a line, such as https://www.example.com/\n");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).containsExactlyInAnyOrder(file, seeds);
    }
  }

  /** bin/crawler itself, in a process of its own: the launcher finds a JDK, starts the jar, and passes the exit code on. */
  @Test
  void theLauncherScriptExitsWithTwoAndPrintsTheProblemForABadFile() throws Exception {
    Path launcher = LauncherCopy.in(dir.resolve("project"));
    Path file = Files.writeString(dir.resolve("crawl.yaml"), "fetch:\n  workers: 0\n");

    Process process = new ProcessBuilder(launcher.toString(), "crawl", "--config",
        file.toString()).redirectErrorStream(false).start();
    process.getOutputStream().close();
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("bin/crawler ended").isTrue();

    assertThat(process.exitValue()).as("exit code; stderr: %s", err).isEqualTo(ExitCode.BAD_USAGE);
    assertThat(err).contains("Configuration error:\n  " + file
        + ":2: fetch.workers: \"0\" is below 1; allowed: a whole number from 1 to 100_000\n");
    assertThat(out).isEmpty();
    assertThat(dir.resolve("crawl-data")).doesNotExist();
  }

  private void assertNothingCreatedBeside(Path file) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).as("files in the config's folder").containsExactly(file);
    }
  }
}
