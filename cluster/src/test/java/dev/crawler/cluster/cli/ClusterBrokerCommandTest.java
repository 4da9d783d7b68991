package dev.crawler.cluster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code crawler cluster broker} as a user runs it, in a process of its own: seeds sent to it
 * are still there after it is stopped (SIGTERM) and started again on its folder, at the same
 * address; a second broker on its port is refused with what to do.
 */
class ClusterBrokerCommandTest {
  private static final long READY_SECONDS = 120;

  @Test
  void keepsTheCrawlsTopicsAcrossARestartOnItsFolderAndRefusesATakenPort(@TempDir Path dir) throws Exception {
    int port = freePort();
    Path brokerDir = dir.resolve("kafka");
    Path config = dir.resolve("crawl.yaml");
    Files.writeString(config, """
        crawl: {user-agent: {name: testbot}, data-dir: data}
        cluster: {bootstrap-servers: ["127.0.0.1:%d"], name: tried, partitions: 4}
        """.formatted(port));
    Path seeds = dir.resolve("seeds.txt");
    Files.writeString(seeds, "https://a.example.com/\nhttps://b.example.com/\n");

    Broker first = startBroker(brokerDir, port, dir.resolve("first.log"));
    try {
      awaitReady(first, port);
      String[] seed = {"cluster", "seed", "--config", config.toString(), "--seeds", seeds.toString()};
      assertThat(run(seed)).contains("Sent 2 seed(s)");

      Broker second = startBroker(dir.resolve("kafka-2"), port, dir.resolve("second.log"));
      assertThat(second.process().waitFor(READY_SECONDS, TimeUnit.SECONDS)).as("a second broker on the port gives up")
          .isTrue();
      String refused = Files.readString(second.log());
      assertThat(second.process().exitValue()).as(refused).isEqualTo(2);
      assertThat(refused).contains("is taken by another process").contains("--port").doesNotContain("\tat ");
    } finally {
      first.process().destroy();   // SIGTERM: the broker shuts down cleanly
      assertThat(first.process().waitFor(60, TimeUnit.SECONDS)).as("the broker stops on SIGTERM").isTrue();
    }

    Broker again = startBroker(brokerDir, port, dir.resolve("again.log"));
    try {
      awaitReady(again, port);
      assertThat(run("cluster", "status", "--config", config.toString()))
          .as("the seeds sent before the restart").contains("Totals: 2 URL records").contains("2 not taken yet");
    } finally {
      again.process().destroy();
      again.process().waitFor(60, TimeUnit.SECONDS);
    }
  }

  private static String run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = ClusterMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    assertThat(code).as(String.join(" ", args) + ": " + out + err).isZero();
    return out.toString();
  }

  /** A broker process and the file its output goes to. */
  private record Broker(Process process, Path log) {}

  private static Broker startBroker(Path brokerDir, int port, Path log) throws IOException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"),
        ClusterMain.class.getName(), "cluster", "broker", "--dir", brokerDir.toString(), "--port",
        Integer.toString(port)));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new Broker(process, log);
  }

  /** Until the broker's output has its ready line with its address, or fails with what it printed. */
  private static void awaitReady(Broker broker, int port) throws Exception {
    String ready = ClusterBrokerCommand.READY + "127.0.0.1:" + port;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_SECONDS);
    while (System.nanoTime() < deadline) {
      String printed = Files.readString(broker.log());
      if (printed.contains(ready)) {
        return;
      }
      if (!broker.process().isAlive()) {
        throw new AssertionError("the broker exited with " + broker.process().exitValue() + ":\n" + printed);
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no ready line from the broker within " + READY_SECONDS + " s:\n"
        + Files.readString(broker.log()));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    }
  }
}
