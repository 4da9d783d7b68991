package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cluster.broker.SharedBroker;
import dev.crawler.frontier.FetchOutcome;
import dev.crawler.intake.AdmittedUrl;
import dev.crawler.url.CrawlUrl;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A node's partition states behind the crawl's consumer group, on a real broker. */
@ExtendWith(SharedBroker.class)
class PartitionStatesTest {
  static final Duration TIMEOUT = Duration.ofSeconds(30);
  static final Duration PATIENCE = Duration.ofSeconds(90);

  @TempDir
  Path nodeDir;
  Map<String, Object> client;
  Admin admin;

  @BeforeEach
  void connect(SharedBroker.Address broker) {
    client = Map.of("bootstrap.servers", broker.bootstrapServers());
    admin = Admin.create(client);
  }

  @AfterEach
  void close() {
    admin.close();
  }

  @Test
  void aNodeQueuesItsPartitionsUrlsMinusThoseDoneAndAfterARestartContinuesFromItsCheckpoints() throws Exception {
    ClusterTopics topics = new ClusterTopics("node-states", 2);
    topics.ensure(admin, (short) 1, TIMEOUT);
    List<AdmittedUrl> zero = PartitionFixtures.urlsOf(0, 2, 5, 200);
    List<AdmittedUrl> one = PartitionFixtures.urlsOf(1, 2, 5, 300);
    List<DoneRecord> done = new ArrayList<>();
    for (AdmittedUrl u : zero.subList(0, 50)) {
      done.add(DoneRecord.of(u.queueKey(), u.url().url(), FetchOutcome.Kind.FETCHED));
    }
    try (UrlTopicProducer urls = new UrlTopicProducer(topics, client, "lz4");
        DoneTopicProducer completions = new DoneTopicProducer(topics, client, "lz4")) {
      completions.take(done);
      urls.take(zero);
      urls.take(one);
    }
    PartitionState.Options options = PartitionFixtures.options(10_000, false);

    PartitionStates states = new PartitionStates(nodeDir, options, topics, client);
    runUntil(topics, states, () -> queued(states, 0) == 150 && queued(states, 1) == 300, () -> { });
    assertThat(nodeDir.resolve("partitions/0/checkpoint")).exists();
    assertThat(nodeDir.resolve("partitions/1/checkpoint")).exists();

    // The node restarts: each partition continues from its checkpoint, and takes only what came after.
    try (UrlTopicProducer urls = new UrlTopicProducer(topics, client, "lz4")) {
      urls.take(List.of(zero.get(60), new AdmittedUrl(CrawlUrl.of("https://" + zero.get(0).queueKey() + "/late"),
          zero.get(0).queueKey(), 1, null, 0)));
    }
    PartitionStates restarted = new PartitionStates(nodeDir, options, topics, client);
    runUntil(topics, restarted, () -> restarted.state(0).map(s -> s.checkpoint().urls() == 202).orElse(false)
        && restarted.state(1).isPresent(), () -> {
          assertThat(restarted.state(0).orElseThrow().heldBefore()).isTrue();
          assertThat(queued(restarted, 0)).isEqualTo(151);
          assertThat(queued(restarted, 1)).isEqualTo(300);
        });
  }

  private static long queued(PartitionStates states, int partition) {
    return states.state(partition).map(s -> s.frontier().stats().queuedUrls()).orElse(-1L);
  }

  /**
   * Runs a node's consumer on {@code states} until {@code condition}, runs {@code checks} while the
   * states are open, then stops it and closes the states.
   */
  private void runUntil(ClusterTopics topics, PartitionStates states, BooleanSupplier condition, Runnable checks)
      throws Exception {
    UrlTopicConsumer consumer = new UrlTopicConsumer(topics, client, "node", states);
    Thread thread = new Thread(consumer, "consumer");
    thread.start();
    try {
      long deadline = System.nanoTime() + PATIENCE.toNanos();
      while (!condition.getAsBoolean()) {
        if (System.nanoTime() > deadline || !thread.isAlive()) {
          throw new AssertionError("the node did not reach its state within " + PATIENCE.toSeconds() + " s");
        }
        Thread.sleep(50);
      }
      checks.run();
    } finally {
      consumer.stop();
      thread.join(TIMEOUT.toMillis());
      states.close();
    }
  }
}
