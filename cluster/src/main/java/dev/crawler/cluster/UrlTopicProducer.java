package dev.crawler.cluster;

import dev.crawler.intake.AdmittedUrl;
import dev.crawler.intake.AdmittedUrls;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The cluster's end of the intake: sends each admitted URL to the crawl's URL topic, keyed by
 * its queue key and routed by {@link QueueKeyPartitioner}, for the owner of its partition to check
 * against the URLs seen and queue. Thread-safe: the workers share one producer, whose batches
 * (per partition, compressed) fill from all of them.
 *
 * <p>{@link #take} returns once the broker has every record of the batch ({@code acks=all}), so a
 * URL taken survives this node's kill, as {@link AdmittedUrls} asks. Idempotent, so a retried send
 * does not write a record twice.
 */
public final class UrlTopicProducer implements AdmittedUrls, AutoCloseable {
  private final ClusterTopics topics;
  private final KafkaProducer<String, byte[]> producer;

  /**
   * @param clientConfig the bootstrap servers and whatever else the crawl sets for its clients;
   *     routing, acknowledgement and serialization are set here
   * @param compression {@code lz4} or {@code zstd}: at dozens of links a page, link traffic is
   *     what sizes the Kafka cluster
   */
  public UrlTopicProducer(ClusterTopics topics, Map<String, Object> clientConfig, String compression) {
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

  /** @return how many were sent: whether they are new is decided by their partitions' owners */
  @Override
  public int take(List<AdmittedUrl> urls) {
    if (urls.isEmpty()) {
      return 0;
    }
    List<Future<RecordMetadata>> sent = new ArrayList<>(urls.size());
    for (AdmittedUrl url : urls) {
      sent.add(producer.send(new ProducerRecord<>(topics.urls(), url.queueKey(), UrlRecord.encode(url))));
    }
    for (Future<RecordMetadata> f : sent) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while " + topics.urls() + " took a batch", e);
      } catch (ExecutionException e) {
        throw new IllegalStateException("the batch could not be written to " + topics.urls(), e.getCause());
      }
    }
    return urls.size();
  }

  /** The producer's metrics, for the bytes and records a page costs. */
  public Map<String, Double> metrics(String... names) {
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

  @Override
  public void close() {
    producer.close();
  }
}
