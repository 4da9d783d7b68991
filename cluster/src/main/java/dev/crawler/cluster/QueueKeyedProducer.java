package dev.crawler.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The one producer setup of a crawl's topics: records keyed by queue key, routed by
 * {@link QueueKeyPartitioner} so topic partition p is frontier partition p, idempotent,
 * {@code acks=all} and compressed. {@link #sendAll} returns once the broker has every record of a
 * batch, so what it took survives this node's kill. Thread-safe, as Kafka's producer is.
 */
final class QueueKeyedProducer implements AutoCloseable {
  static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
  private final ClusterTopics topics;
  private final KafkaProducer<String, byte[]> producer;

  /**
   * @param clientConfig the bootstrap servers and whatever else the crawl sets for its clients;
   *     routing, acknowledgement and serialization are set here
   * @param compression {@code lz4} or {@code zstd}, or {@code none}
   */
  QueueKeyedProducer(ClusterTopics topics, Map<String, Object> clientConfig, String compression) {
    this.topics = topics;
    Map<String, Object> config = new HashMap<>(clientConfig);
    config.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, QueueKeyPartitioner.class.getName());
    config.put(QueueKeyPartitioner.PARTITIONS_CONFIG, Integer.toString(topics.partitions()));
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
    config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
    this.producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
  }

  ClusterTopics topics() {
    return topics;
  }

  /**
   * Sends one record an item to {@code topic}, keyed by the item's queue key, and waits until the
   * broker has them all.
   *
   * @throws IllegalStateException if a record could not be written, or the wait was interrupted
   */
  <T> void sendAll(String topic, List<T> items, Function<T, String> queueKey, Function<T, byte[]> value) {
    List<Future<RecordMetadata>> sent = new ArrayList<>(items.size());
    for (T item : items) {
      sent.add(producer.send(new ProducerRecord<>(topic, queueKey.apply(item), value.apply(item))));
    }
    awaitAll(topic, sent);
  }

  /**
   * Sends {@code values} in order to partition {@code partition} of {@code topic}, unkeyed, and
   * waits until the broker has them all: for records of a partition rather than of a queue.
   *
   * @throws IllegalStateException if a record could not be written, or the wait was interrupted
   */
  void sendAllTo(String topic, int partition, List<byte[]> values) {
    List<Future<RecordMetadata>> sent = new ArrayList<>(values.size());
    for (byte[] value : values) {
      sent.add(producer.send(new ProducerRecord<>(topic, partition, null, value)));
    }
    awaitAll(topic, sent);
  }

  private static void awaitAll(String topic, List<Future<RecordMetadata>> sent) {
    for (Future<RecordMetadata> f : sent) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while " + topic + " took a batch", e);
      } catch (ExecutionException e) {
        throw new IllegalStateException("the batch could not be written to " + topic, e.getCause());
      }
    }
  }

  /**
   * Sends one record an item to {@code topic} without waiting: the future ends once the broker
   * has them all, or with the first failure.
   */
  <T> CompletableFuture<Void> sendAllAsync(String topic, List<T> items, Function<T, String> queueKey,
      Function<T, byte[]> value) {
    CompletableFuture<Void> all = new CompletableFuture<>();
    AtomicInteger left = new AtomicInteger(items.size());
    if (items.isEmpty()) {
      all.complete(null);
    }
    for (T item : items) {
      producer.send(new ProducerRecord<>(topic, queueKey.apply(item), value.apply(item)), (metadata, e) -> {
        if (e != null) {
          all.completeExceptionally(e);
        } else if (left.decrementAndGet() == 0) {
          all.complete(null);
        }
      });
    }
    return all;
  }

  /**
   * Sends one record without waiting for it; {@code failed} is told if it could not be written.
   * {@link #flush} waits for every record sent so far.
   */
  void send(String topic, String queueKey, byte[] value, Consumer<Exception> failed) {
    producer.send(new ProducerRecord<>(topic, queueKey, value), (metadata, e) -> {
      if (e != null) {
        failed.accept(e);
      }
    });
  }

  /** Waits until the broker has every record sent so far (or they failed). */
  void flush() {
    producer.flush();
  }

  /** The producer's metrics of these names, for the bytes and records a page costs. */
  Map<String, Double> metrics(String... names) {
    Map<String, Double> values = new HashMap<>();
    List<String> wanted = List.of(names);
    producer.metrics().forEach((name, metric) -> {
      if (name.group().equals("producer-metrics") && wanted.contains(name.name())
          && metric.metricValue() instanceof Double d) {
        values.put(name.name(), d);
      }
    });
    return values;
  }

  /**
   * Waits for the records sent to reach the broker, up to {@link #CLOSE_TIMEOUT}: a node that
   * stops while the brokers are out of reach drops the rest. Their leases never ended, so their
   * URLs stay queued, and a done record lost means at most a page fetched again.
   */
  @Override
  public void close() {
    producer.close(CLOSE_TIMEOUT);
  }
}
