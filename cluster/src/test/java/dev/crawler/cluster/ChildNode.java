package dev.crawler.cluster;

import dev.crawler.config.ConfigLoader;
import dev.crawler.crawl.CrawlEnvironment;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A cluster node in a JVM of its own, on a configuration file, its host names all resolved to
 * 127.0.0.1 (the demo site): for a test to kill with SIGKILL mid-crawl. It leaves cleanly when
 * its parent closes its stdin, and a parent that dies leaves no node behind.
 */
final class ChildNode implements AutoCloseable {
  private final Process process;

  private ChildNode(Process process) {
    this.process = process;
  }

  static ChildNode start(Path config, Path log) throws IOException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"),
        ChildNode.class.getName(), config.toString()));
    return new ChildNode(new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
  }

  /** SIGKILL: no hand-over, no flush, no goodbye to the group. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    if (!process.isAlive()) {
      return;
    }
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // gone already
    }
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      kill();
    }
  }

  /** The child: runs the node of the configuration in its argument until stdin closes. */
  public static void main(String[] args) throws Exception {
    InetAddress loopback = InetAddress.getByName("127.0.0.1");
    CrawlEnvironment env = CrawlEnvironment.standard()
        .withDns(host -> List.of(InetAddress.getByAddress(host, loopback.getAddress())));
    ClusterNode node = ClusterNode.open(ConfigLoader.load(Path.of(args[0])), env);
    Thread running = Thread.ofPlatform().start(() -> {
      try {
        node.run();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    while (System.in.read() >= 0) {
      // a read of -1: the parent closed the pipe or died
    }
    node.stop();
    running.join();
    node.close();
    System.exit(0);
  }
}
