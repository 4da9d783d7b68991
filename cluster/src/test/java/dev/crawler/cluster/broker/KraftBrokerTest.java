package dev.crawler.cluster.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The test broker is a real one: it takes records, and a restart keeps them. */
class KraftBrokerTest {
  @TempDir Path dir;

  @Test
  void aBrokerRestartedFromItsLayoutKeepsItsTopicsAndRecords() throws Exception {
    BrokerLayout layout;
    try (KraftBroker broker = KraftBroker.startFresh(dir)) {
      layout = broker.layout();
      createTopic(broker.bootstrapServers(), "t");
      produce(broker.bootstrapServers(), "t", List.of("a", "b", "c"));
    }
    try (KraftBroker broker = KraftBroker.start(layout)) {
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
        assertThat(admin.listTopics().names().get()).contains("t");
      }
      produce(broker.bootstrapServers(), "t", List.of("d"));
      assertThat(readAll(broker.bootstrapServers(), "t", 4)).containsExactly("a", "b", "c", "d");
    }
  }

  @Test
  void aChildBrokerKilledWithSigkillRestartsOnItsLog() throws Exception {
    BrokerLayout layout = BrokerLayout.fresh(dir.resolve("child"));
    try (ChildBroker child = ChildBroker.start(layout)) {
      createTopic(layout.bootstrapServers(), "t");
      produce(layout.bootstrapServers(), "t", List.of("a", "b"));
      child.kill();
    }
    try (ChildBroker child = ChildBroker.start(layout)) {
      assertThat(readAll(layout.bootstrapServers(), "t", 2)).containsExactly("a", "b");
    }
  }

  static void createTopic(String bootstrap, String topic) throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
    }
  }

  static void produce(String bootstrap, String topic, List<String> values) throws Exception {
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(
        Map.of("bootstrap.servers", bootstrap, "acks", "all"), new StringSerializer(), new StringSerializer())) {
      for (String v : values) {
        producer.send(new ProducerRecord<>(topic, v)).get();
      }
    }
  }

  static List<String> readAll(String bootstrap, String topic, int expected) {
    List<String> values = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
        Map.of("bootstrap.servers", bootstrap), new StringDeserializer(), new StringDeserializer())) {
      TopicPartition p = new TopicPartition(topic, 0);
      consumer.assign(Set.of(p));
      consumer.seekToBeginning(Set.of(p));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (values.size() < expected && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
          values.add(r.value());
        }
      }
    }
    return values;
  }
}
