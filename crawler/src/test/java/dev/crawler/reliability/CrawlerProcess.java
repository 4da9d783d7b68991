package dev.crawler.reliability;

import dev.crawler.cli.CrawlerCommand;
import dev.crawler.demo.DemoSite;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The real command line ({@code crawler crawl} or {@code crawler resume}) in a child JVM, so
 * that a test can kill it as an operator or the kernel would: {@link #kill} is SIGKILL (no
 * shutdown hook, no close, buffers lost), {@link #terminate} is SIGTERM (the CLI's shutdown hook
 * stops the crawl cleanly). The demo site stays in the test's JVM, so its request log outlives
 * every child.
 *
 * <p>The child resolves the site's host names through a hosts file ({@code jdk.net.hosts.file})
 * that maps each of them, and nothing else, to 127.0.0.1: the CLI's own resolver then reaches the
 * site and cannot reach past loopback. Its output (stdout and log) goes to a file, read with
 * {@link #output}.
 */
final class CrawlerProcess {
  /** Heap of the child: a small crawl needs little, and a small heap keeps two busy cores for the work. */
  private static final String HEAP = "-Xmx256m";

  private final Process process;
  private final Path output;
  private final String name;

  private CrawlerProcess(Process process, Path output, String name) {
    this.process = process;
    this.output = output;
    this.name = name;
  }

  /**
   * Writes the YAML of a crawl in {@code dir/crawl} with no politeness delay (the site is ours),
   * loopback allowed, and {@code workers} fetch workers; the rest is the defaults.
   */
  static Path config(Path dir, int workers, long expectedUrls) throws IOException {
    String yaml = """
        status:
          listen: 127.0.0.1:0   # any free port: test crawls run side by side
        crawl:
          data-dir: '%s'
          user-agent:
            name: crash-test
        politeness:
          default-delay: 0ms
        fetch:
          workers: %d
        scope:
          allow-private-addresses: true
        seen:
          expected-urls: %d
        stats:
          interval: 1s
        """.formatted(dir.resolve("crawl"), workers, Math.max(1_000, expectedUrls));
    return Files.writeString(dir.resolve("crawl.yaml"), yaml, StandardCharsets.UTF_8);
  }

  /** Writes the seed file: the site's seeds, one a line. */
  static Path seedFile(DemoSite site, Path dir) throws IOException {
    return Files.write(dir.resolve("seeds.txt"), site.seeds(), StandardCharsets.UTF_8);
  }

  /** Writes the hosts file that maps every host of the site to 127.0.0.1. */
  static Path hostsFile(DemoSite site, Path dir) throws IOException {
    String names = site.spec().hosts().stream().map(h -> h.name()).collect(Collectors.joining(" "));
    return Files.writeString(dir.resolve("hosts"), "127.0.0.1 " + names + "\n", StandardCharsets.UTF_8);
  }

  /**
   * Starts {@code crawler <args>} in a new JVM of the same java binary and class path as this one.
   *
   * @param name names the output file ({@code <name>.out} in {@code dir})
   */
  static CrawlerProcess start(Path dir, String name, Path hostsFile, String... args) throws IOException {
    return start(dir, name, hostsFile, List.of(), args);
  }

  /** As {@link #start(Path, String, Path, String...)}, with more options for the JVM ({@code -Dkey=value}). */
  static CrawlerProcess start(Path dir, String name, Path hostsFile, List<String> jvmOptions, String... args)
      throws IOException {
    String java = ProcessHandle.current().info().command().orElseThrow(
        () -> new IllegalStateException("cannot tell which java binary runs this test"));
    List<String> command = new ArrayList<>(List.of(java, HEAP, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "--enable-native-access=ALL-UNNAMED", "-Djdk.net.hosts.file=" + hostsFile));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), CrawlerCommand.class.getName()));
    command.addAll(List.of(args));
    Path output = dir.resolve(name + ".out");
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(output.toFile()).start();
    return new CrawlerProcess(process, output, name);
  }

  /** SIGKILL, and waits until the process is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  /** SIGTERM; returns the exit code once the process has stopped. */
  int terminate(Duration timeout) throws InterruptedException {
    process.destroy();
    return waitFor(timeout);
  }

  /** The exit code, once the process ends by itself within {@code timeout}. */
  int waitFor(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError(name + " did not end within " + timeout + "; killed it. Its output:\n" + output());
    }
    return process.exitValue();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** What the process printed so far (stdout and its log). */
  String output() {
    try {
      return Files.readString(output, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(cannot read " + output + ": " + e + ")";
    }
  }
}
