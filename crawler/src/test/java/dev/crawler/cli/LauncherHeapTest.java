package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.config.ConfigLoader;
import dev.crawler.crawl.CrawlMemory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/crawler gives a crawl's JVM the heap its config asks for ({@code crawler heap}), and a heap
 * option in CRAWLER_JAVA_OPTS wins. Read from the start-up line of a {@code resume} with nothing
 * to resume, which prints the JVM's heap and stops.
 */
class LauncherHeapTest {
  private static final String CONFIG = """
      crawl:
        data-dir: crawl-data
        user-agent:
          name: test-crawler
      seen:
        expected-urls: 20_000_000
        recent-memory: 16MB
      """;

  @TempDir Path dir;

  @Test
  void theHeapCommandPrintsTheMaxHeapOptionOfTheConfig() throws Exception {
    Path file = Files.writeString(dir.resolve("crawl.yaml"), CONFIG);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = CrawlerCommand.run(new PrintWriter(out), new PrintWriter(err), "heap", "--config", file.toString());
    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString()).isEqualTo(CrawlMemory.of(ConfigLoader.load(file)).maxHeapOption() + "\n")
        .matches("-Xmx\\d+m\n");
  }

  @Test
  void theLauncherGivesTheJvmTheHeapTheConfigAsksFor() throws Exception {
    Path file = Files.writeString(dir.resolve("crawl.yaml"), CONFIG);
    long megabytes = Long.parseLong(CrawlMemory.of(ConfigLoader.load(file)).maxHeapOption().replaceAll("\\D", ""));
    String err = resumeWith(file, "-XX:+UseG1GC");
    assertThat(err).contains("Memory: this JVM may use " + megabytes + " MB of heap");
    // A second start reads the answer kept for the same file and jar.
    assertThat(dir.resolve("cache/crawler/heap")).isNotEmptyDirectory();
    assertThat(resumeWith(file, "-XX:+UseG1GC")).contains("Memory: this JVM may use " + megabytes + " MB of heap");
  }

  @Test
  void aHeapInCrawlerJavaOptsWins() throws Exception {
    Path file = Files.writeString(dir.resolve("crawl.yaml"), CONFIG);
    assertThat(resumeWith(file, "-XX:+UseG1GC -Xmx700m")).contains("Memory: this JVM may use 700 MB of heap");
    assertThat(dir.resolve("cache/crawler/heap")).as("not asked").doesNotExist();
  }

  /** Runs {@code bin/crawler resume --config FILE} with CRAWLER_JAVA_OPTS; returns its stderr. */
  private String resumeWith(Path file, String javaOptions) throws Exception {
    Path launcher = dir.resolve("project/bin/crawler");
    if (!Files.exists(launcher)) {
      LauncherCopy.in(dir.resolve("project"));
    }
    ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "resume", "--config", file.toString())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Map<String, String> env = builder.environment();
    env.put("CRAWLER_JAVA_OPTS", javaOptions);
    env.put("XDG_CACHE_HOME", dir.resolve("cache").toString());
    Process process = builder.start();
    process.getOutputStream().close();
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("bin/crawler ended").isTrue();
    assertThat(process.exitValue()).as(err).isEqualTo(ExitCode.BAD_USAGE);
    assertThat(err).contains("nothing to resume");
    return err;
  }
}
