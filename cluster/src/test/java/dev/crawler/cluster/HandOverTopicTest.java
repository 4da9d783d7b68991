package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.cluster.broker.SharedBroker;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The hand-over topic on a real broker: the latest hand-over of a partition is what is read back. */
@ExtendWith(SharedBroker.class)
class HandOverTopicTest {
  private static ClusterTopics topicsOn(SharedBroker.Address broker, String crawl) throws Exception {
    ClusterTopics topics = new ClusterTopics(crawl + "-" + System.nanoTime(), 4);
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
      topics.ensure(admin, (short) 1, Duration.ofSeconds(30));
    }
    return topics;
  }

  @Test
  void theLatestHandOverOfAPartitionIsReadBackWhole(SharedBroker.Address broker) throws Exception {
    ClusterTopics topics = topicsOn(broker, "handover");
    Map<String, Object> clients = Map.of("bootstrap.servers", broker.bootstrapServers());
    Map<String, Long> many = new HashMap<>();
    for (int i = 0; i < 20_000; i++) {
      many.put("host-" + i + ".example.com", 500L + i);
    }
    try (HandOverTopic handOvers = new HandOverTopic(topics, clients)) {
      assertThat(handOvers.latest(2)).as("a partition never handed over").isEmpty();
      handOvers.write(2, 10, 0, Map.of("old.com", 5_000L));
      handOvers.write(2, 17, 0, many);   // more than one chunk
      handOvers.write(3, 4, 2_500, Map.of());
    }
    try (HandOverTopic reopened = new HandOverTopic(topics, clients)) {
      HostWaits latest = reopened.latest(2).orElseThrow();
      assertThat(latest.doneOffset()).isEqualTo(17);
      assertThat(latest.everyHostMillis()).isZero();
      assertThat(latest.waitMillis()).isEqualTo(many);
      HostWaits empty = reopened.latest(3).orElseThrow();
      assertThat(empty.doneOffset()).isEqualTo(4);
      assertThat(empty.waitMillis()).isEmpty();
      assertThat(empty.everyHostMillis()).isEqualTo(2_500);
      assertThat(reopened.latest(0)).isEmpty();
    }
  }

  @Test
  void aRecordThatIsNotAHandOverIsAClearError(SharedBroker.Address broker) throws Exception {
    ClusterTopics topics = topicsOn(broker, "handover-bad");
    Map<String, Object> clients = Map.of("bootstrap.servers", broker.bootstrapServers());
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers",
        broker.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(topics.handovers(), 1, null, new byte[] {1, 2, 3})).get();
    }
    try (HandOverTopic handOvers = new HandOverTopic(topics, clients)) {
      assertThatThrownBy(() -> handOvers.latest(1)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("cannot be read: " + topics.handovers() + "-1 record 0: a hand-over record holds at least");
    }
  }
}
