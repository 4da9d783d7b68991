package dev.crawler.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The crawl's hand-over topic: a partition's owner writes its hosts' {@link HostWaits} there as
 * the partition leaves it, and the next owner reads the latest before its first request. Only
 * the partition's one owner writes to its partition of the topic, so a hand-over's chunks lie
 * one after the other, and the last record tells how many there are before it.
 */
final class HandOverTopic implements AutoCloseable {
  /** Well within Kafka's default largest record (1 MB): about 9,000 hosts a chunk. */
  static final int CHUNK_BYTES = 256 << 10;
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

  private final ClusterTopics topics;
  private final QueueKeyedProducer producer;
  private final KafkaConsumer<byte[], byte[]> consumer;

  /** @param clientConfig the bootstrap servers and whatever else the crawl sets for its clients */
  HandOverTopic(ClusterTopics topics, Map<String, Object> clientConfig) {
    this.topics = topics;
    this.producer = new QueueKeyedProducer(topics, clientConfig, "zstd");
    Map<String, Object> config = new HashMap<>(clientConfig);
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
    try {
      this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    } catch (RuntimeException e) {
      producer.close();
      throw e;
    }
  }

  /**
   * Writes what {@code partition}'s hosts still wait, and returns once the broker has it all.
   *
   * @throws IllegalStateException if it could not be written
   */
  void write(int partition, long doneOffset, long everyHostMillis, Map<String, Long> waitMillis) {
    HostWaits waits = new HostWaits(ThreadLocalRandom.current().nextLong(), doneOffset, everyHostMillis, waitMillis);
    producer.sendAllTo(topics.handovers(), partition, waits.chunks(CHUNK_BYTES));
  }

  /**
   * {@code partition}'s latest hand-over: none if it never had one (or it is past the topic's
   * retention). Not thread-safe: called by the group's consumer thread alone.
   *
   * @throws IllegalStateException if they cannot be read, or what is read is not one hand-over
   */
  Optional<HostWaits> latest(int partition) {
    TopicPartition tp = new TopicPartition(topics.handovers(), partition);
    consumer.assign(List.of(tp));
    try {
      long first = consumer.beginningOffsets(List.of(tp)).get(tp);
      long end = consumer.endOffsets(List.of(tp)).get(tp);
      if (end <= first) {
        return Optional.empty();
      }
      List<ConsumerRecord<byte[], byte[]>> tail = read(tp, end - 1, end);
      if (tail.isEmpty()) {
        throw new IllegalStateException("no record at the end of " + tp + " (offset " + (end - 1) + ")");
      }
      HostWaits.Chunk last = decode(tail.get(0));
      long from = end - 1 - last.index();
      if (from < first) {
        throw new IllegalStateException("the latest hand-over of " + tp + " begins at offset " + from
            + ", before the topic's first record (" + first + ")");
      }
      List<HostWaits.Chunk> chunks = new ArrayList<>();
      for (ConsumerRecord<byte[], byte[]> r : read(tp, from, end)) {
        chunks.add(decode(r));
      }
      return Optional.of(HostWaits.of(chunks));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("the latest hand-over of " + tp + " cannot be read: " + e.getMessage(), e);
    } finally {
      consumer.unsubscribe();
    }
  }

  private static HostWaits.Chunk decode(ConsumerRecord<byte[], byte[]> r) {
    try {
      return HostWaits.decode(r.value());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("record " + r.offset() + ": " + e.getMessage(), e);
    }
  }

  private List<ConsumerRecord<byte[], byte[]>> read(TopicPartition tp, long from, long end) {
    consumer.seek(tp, from);
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
    while (consumer.position(tp) < end) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the hand-over records " + tp + "@" + from + ".." + end + " were not read in "
            + READ_TIMEOUT.toSeconds() + " s");
      }
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL).records(tp)) {
        if (r.offset() < end) {
          records.add(r);
        }
      }
    }
    return records;
  }

  @Override
  public void close() {
    try {
      consumer.close();
    } finally {
      producer.close();
    }
  }
}
