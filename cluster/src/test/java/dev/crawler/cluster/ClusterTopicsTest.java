package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.cluster.broker.SharedBroker;
import dev.crawler.crawl.CrawlStartException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SharedBroker.class)
class ClusterTopicsTest {
  static final Duration TIMEOUT = Duration.ofSeconds(30);
  Admin admin;

  @BeforeEach
  void connect(SharedBroker.Address broker) {
    admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()));
  }

  @AfterEach
  void close() {
    admin.close();
  }

  @Test
  void namesComeFromTheCrawl() {
    ClusterTopics topics = new ClusterTopics("news-2026", 64);
    assertThat(topics.urls()).isEqualTo("news-2026.urls");
    assertThat(topics.done()).isEqualTo("news-2026.done");
    assertThat(topics.groupId()).isEqualTo("news-2026");
  }

  /** Brokers out of reach at a node's start: one clear error that names what to check, soon; nothing to report as a bug. */
  @Test
  void brokersThatDoNotAnswerAreAStartErrorThatSaysWhatToCheck() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    long started = System.nanoTime();
    assertThatThrownBy(() -> ClusterSeeds.ensureTopics(new ClusterTopics("nobody", 4),
        Map.of("bootstrap.servers", "127.0.0.1:" + closedPort), Duration.ofSeconds(1)))
        .isInstanceOf(CrawlStartException.class)
        .hasMessageContaining("the Kafka cluster at [127.0.0.1:" + closedPort + "] did not answer in 1 s")
        .hasMessageContaining("check cluster.bootstrap-servers and that the brokers are up");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the unanswered call is dropped, not waited for")
        .isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void aNameKafkaCannotTakeIsRefused() {
    assertThatThrownBy(() -> new ClusterTopics("my crawl", 8)).hasMessageContaining("crawl name (my crawl) must be");
    assertThatThrownBy(() -> new ClusterTopics("c", 0)).hasMessageContaining("partitions (0) must be in [1, 65536]");
  }

  @Test
  void missingTopicsAreCreatedWithThePartitionsAndKeptForever() throws Exception {
    ClusterTopics topics = new ClusterTopics("created", 6);
    topics.ensure(admin, (short) 1, TIMEOUT);
    topics.ensure(admin, (short) 1, TIMEOUT);   // a second node starting finds them as they are
    Map<String, TopicDescription> described = admin.describeTopics(List.of(topics.urls(), topics.done()))
        .allTopicNames().get();
    assertThat(described.values()).allSatisfy(d -> assertThat(d.partitions()).hasSize(6));
    var config = admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, topics.urls())))
        .all().get().values().iterator().next();
    assertThat(config.get("retention.ms").value()).isEqualTo("-1");
  }

  @Test
  void anExistingTopicOfAnotherPartitionCountIsAClearError() throws Exception {
    admin.createTopics(List.of(new NewTopic("resized.urls", 4, (short) 1))).all().get();
    ClusterTopics topics = new ClusterTopics("resized", 8);
    assertThatThrownBy(() -> topics.ensure(admin, (short) 1, TIMEOUT))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("topic resized.urls has 4 partitions, but crawl resized is opened with 8");
  }

  @Test
  void aTopicMissingBesideAnExistingOneIsCreated() throws Exception {
    admin.createTopics(List.of(new NewTopic("half.urls", 3, (short) 1))).all().get();
    new ClusterTopics("half", 3).ensure(admin, (short) 1, TIMEOUT);
    assertThat(admin.describeTopics(List.of("half.done")).allTopicNames().get().get("half.done").partitions())
        .hasSize(3);
  }
}
