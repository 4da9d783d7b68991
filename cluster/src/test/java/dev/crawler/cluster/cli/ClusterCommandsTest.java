package dev.crawler.cluster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.crawler.cluster.broker.SharedBroker;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The cluster's commands as a user runs them: the demo end to end, seeds and status on a real broker, and mistakes. */
@ExtendWith(SharedBroker.class)
class ClusterCommandsTest {
  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = ClusterMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  /**
   * The demo ends with its three nodes leaving the group at once, so partitions are on their way
   * to a node as it closes: its logs must still hold no error and no warning of the crawler's.
   */
  @Test
  void theClusterDemoCrawlsTheSiteWithThreeNodesAndPassesItsCheck(@TempDir Path dir) {
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    root.addAppender(logged);
    Run demo;
    try {
      demo = run("cluster", "demo", "--data-dir", dir.toString());
    } finally {
      root.detachAppender(logged);
    }
    assertThat(demo.code()).as(demo.out() + demo.err()).isZero();
    assertThat(demo.out()).contains("3 node(s) in the group: node-1, node-2, node-3")
        .contains("253 of 253 expected URLs fetched, 0 fetched more than once, 0 not expected")
        .contains("hosts with two requests at once: none; Crawl-delay cut short: none");
    List<String> alarms = List.copyOf(logged.list).stream()
        .filter(e -> e.getLevel().isGreaterOrEqual(Level.ERROR)
            || (e.getLevel().isGreaterOrEqual(Level.WARN) && e.getLoggerName().startsWith("dev.crawler")))
        .map(e -> e.getLevel() + " " + e.getLoggerName() + ": " + e.getFormattedMessage())
        .toList();
    assertThat(alarms).as("errors, and the crawler's warnings, the demo logged").isEmpty();
  }

  @Test
  void seedThenStatusShowTheSeedsOnTheirPartitions(SharedBroker.Address broker, @TempDir Path dir) throws Exception {
    String crawl = "commands-" + System.nanoTime();
    Path config = dir.resolve("crawl.yaml");
    Files.writeString(config, """
        crawl: {user-agent: {name: testbot}, data-dir: data}
        cluster: {bootstrap-servers: [%s], name: %s, partitions: 4}
        """.formatted(broker.bootstrapServers(), crawl));
    Path seeds = dir.resolve("seeds.txt");
    Files.writeString(seeds, "https://a.example.com/\nhttps://b.example.com/\nnot a url\n");
    Run seed = run("cluster", "seed", "--config", config.toString(), "--seeds", seeds.toString());
    assertThat(seed.code()).as(seed.out() + seed.err()).isZero();
    assertThat(seed.out()).contains("Sent 2 seed(s)").contains("1 refused");
    Run status = run("cluster", "status", "--config", config.toString());
    assertThat(status.code()).as(status.out() + status.err()).isZero();
    assertThat(status.out()).contains("Crawl " + crawl + ": 4 partitions, 0 node(s) in the group: none")
        .contains("Totals: 2 URL records").contains("2 not taken yet");
  }

  @Test
  void aNodeWithoutAClusterSectionIsRefusedWithWhatToDo(@TempDir Path dir) throws Exception {
    Path config = dir.resolve("crawl.yaml");
    Files.writeString(config, "crawl: {user-agent: {name: testbot}, data-dir: data}\n");
    Run node = run("node", "--config", config.toString());
    assertThat(node.code()).isEqualTo(2);
    assertThat(node.err()).contains("has no cluster section").contains("bin/crawler crawl");
    assertThat(node.err()).doesNotContain("Exception");
    assertThat(dir.resolve("data")).doesNotExist();
  }
}
