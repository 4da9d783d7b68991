package dev.crawler.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
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
  private final boolean ownsProducer;
  private final KafkaConsumer<byte[], byte[]> consumer;

  /** @param clientConfig the bootstrap servers and whatever else the crawl sets for its clients */
  HandOverTopic(ClusterTopics topics, Map<String, Object> clientConfig) {
    this(new QueueKeyedProducer(topics, clientConfig, "zstd"), true, clientConfig);
  }

  /** Writes through a node's one producer, which its owner closes. */
  HandOverTopic(QueueKeyedProducer shared, Map<String, Object> clientConfig) {
    this(shared, false, clientConfig);
  }

  private HandOverTopic(QueueKeyedProducer producer, boolean ownsProducer, Map<String, Object> clientConfig) {
    this.topics = producer.topics();
    this.producer = producer;
    this.ownsProducer = ownsProducer;
    Map<String, Object> config = new HashMap<>(clientConfig);
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
    try {
      this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    } catch (RuntimeException e) {
      if (ownsProducer) {
        producer.close();
      }
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
   * retention).
   *
   * @throws IllegalStateException if it cannot be read, or what is read is not one hand-over
   */
  Optional<HostWaits> latest(int partition) {
    return Optional.ofNullable(latest(List.of(partition)).get(partition));
  }

  /**
   * The latest hand-over of each of {@code partitions} that had one, read together: a node given
   * many partitions at once pays a few round trips, not a few for each. Not thread-safe: called
   * by the group's consumer thread alone.
   *
   * @throws IllegalStateException if they cannot be read, or what is read is not one hand-over
   */
  Map<Integer, HostWaits> latest(Collection<Integer> partitions) {
    List<TopicPartition> tps = new ArrayList<>();
    for (int p : partitions) {
      tps.add(new TopicPartition(topics.handovers(), p));
    }
    Map<Integer, HostWaits> latest = new HashMap<>();
    if (tps.isEmpty()) {
      return latest;
    }
    try {
      Map<TopicPartition, Long> first = consumer.beginningOffsets(tps);
      Map<TopicPartition, Long> end = consumer.endOffsets(tps);
      Map<TopicPartition, long[]> tails = new HashMap<>();
      for (TopicPartition tp : tps) {
        if (end.get(tp) > first.get(tp)) {
          tails.put(tp, new long[] {end.get(tp) - 1, end.get(tp)});
        }
      }
      // The last record of each says where its hand-over begins; most hand-overs are that one record.
      Map<TopicPartition, long[]> whole = new HashMap<>();
      Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> read = read(tails);
      for (TopicPartition tp : tails.keySet()) {
        HostWaits.Chunk last = decode(tp, read.get(tp).get(0));
        long from = end.get(tp) - 1 - last.index();
        if (from < first.get(tp)) {
          throw new IllegalStateException("the latest hand-over of " + tp + " begins at offset " + from
              + ", before the topic's first record (" + first.get(tp) + ")");
        }
        if (last.index() == 0) {
          latest.put(tp.partition(), HostWaits.of(List.of(last)));
        } else {
          whole.put(tp, new long[] {from, end.get(tp)});
        }
      }
      Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> chunks = read(whole);
      for (TopicPartition tp : whole.keySet()) {
        List<HostWaits.Chunk> decoded = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : chunks.get(tp)) {
          decoded.add(decode(tp, r));
        }
        latest.put(tp.partition(), HostWaits.of(decoded));
      }
      return latest;
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("the latest hand-overs of " + topics.handovers() + " cannot be read: "
          + e.getMessage(), e);
    } finally {
      consumer.unsubscribe();
    }
  }

  private static HostWaits.Chunk decode(TopicPartition tp, ConsumerRecord<byte[], byte[]> r) {
    try {
      return HostWaits.decode(r.value());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(tp + " record " + r.offset() + ": " + e.getMessage(), e);
    }
  }

  /** The records of each partition from {@code range[0]} to before {@code range[1]}, every one of them. */
  private Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> read(Map<TopicPartition, long[]> ranges) {
    Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> records = new HashMap<>();
    if (ranges.isEmpty()) {
      return records;
    }
    consumer.assign(ranges.keySet());
    ranges.forEach((tp, range) -> {
      consumer.seek(tp, range[0]);
      records.put(tp, new ArrayList<>());
    });
    long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
    while (ranges.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue()[1])) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the hand-over records of " + ranges.keySet() + " were not read in "
            + READ_TIMEOUT.toSeconds() + " s");
      }
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
        long[] range = ranges.get(tp);
        if (range != null && r.offset() >= range[0] && r.offset() < range[1]) {
          records.get(tp).add(r);
        }
      }
    }
    ranges.forEach((tp, range) -> {
      if (records.get(tp).size() != range[1] - range[0]) {
        throw new IllegalStateException("offsets " + range[0] + " to " + range[1] + " of " + tp + " hold "
            + records.get(tp).size() + " hand-over records, not " + (range[1] - range[0]));
      }
    });
    return records;
  }

  @Override
  public void close() {
    try {
      consumer.close();
    } finally {
      if (ownsProducer) {
        producer.close();
      }
    }
  }
}
