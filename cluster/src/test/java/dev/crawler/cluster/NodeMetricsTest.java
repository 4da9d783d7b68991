package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cluster.broker.SharedBroker;
import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.status.CrawlStatus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A node's {@code /metrics} has its share of the crawl: the partitions it owns, their lag, whether it is paused. */
@ExtendWith(SharedBroker.class)
class NodeMetricsTest {
  private static final int PARTITIONS = 4;

  @Test
  void aNodesMetricsSayWhatItOwnsAndThatItIsNotPaused(SharedBroker.Address broker, @TempDir Path dir) throws Exception {
    Path folder = dir.resolve("n1");
    String yaml = DemoCluster.nodeYaml(folder, broker.bootstrapServers(), "metrics-" + System.nanoTime(), PARTITIONS,
        "n1").replace("listen: off", "listen: 127.0.0.1:0");
    assertThat(yaml).contains("listen: 127.0.0.1:0");
    CrawlConfig config = ConfigLoader.parse(yaml, "the test's node", folder);
    try (LocalNodes nodes = new LocalNodes(PARTITIONS)) {
      nodes.start(config, CrawlEnvironment.standard());
      nodes.awaitSettled(Duration.ofSeconds(60));
      String page = Files.readString(folder.resolve(CrawlStatus.ADDRESS_FILE)).trim();
      HttpResponse<String> metrics = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(page + "metrics")).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body())
          .containsPattern("(?m)^crawler_cluster_partitions_owned " + PARTITIONS + "\\.0$")
          .containsPattern("(?m)^crawler_cluster_paused 0\\.0$")
          .containsPattern("(?m)^crawler_cluster_partitions_lost 0\\.0$")
          .containsPattern("(?m)^crawler_cluster_lag_records (0\\.0|NaN)$")
          .contains("# HELP crawler_cluster_silence_pauses");
    }
  }
}
