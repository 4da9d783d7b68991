package dev.crawler.cluster;

import dev.crawler.intake.AdmittedUrl;
import dev.crawler.intake.AdmittedUrls;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

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
  private final QueueKeyedProducer producer;
  private final boolean ownsProducer;

  /**
   * @param clientConfig the bootstrap servers and whatever else the crawl sets for its clients;
   *     routing, acknowledgement and serialization are set here
   * @param compression {@code lz4} or {@code zstd}: at dozens of links a page, link traffic is
   *     what sizes the Kafka cluster
   */
  public UrlTopicProducer(ClusterTopics topics, Map<String, Object> clientConfig, String compression) {
    this(new QueueKeyedProducer(topics, clientConfig, compression), true);
  }

  /** Sends through a node's one producer, which its owner closes (one network thread, one request for all topics). */
  UrlTopicProducer(QueueKeyedProducer shared) {
    this(shared, false);
  }

  private UrlTopicProducer(QueueKeyedProducer producer, boolean ownsProducer) {
    this.producer = producer;
    this.ownsProducer = ownsProducer;
  }

  /** @return how many were sent: whether they are new is decided by their partitions' owners */
  @Override
  public int take(List<AdmittedUrl> urls) {
    if (urls.isEmpty()) {
      return 0;
    }
    producer.sendAll(producer.topics().urls(), urls, AdmittedUrl::queueKey, UrlRecord::encode);
    return urls.size();
  }

  /** Sends the URLs without waiting; the future ends once the broker has them all. */
  public CompletableFuture<Void> send(List<AdmittedUrl> urls) {
    return producer.sendAllAsync(producer.topics().urls(), urls, AdmittedUrl::queueKey, UrlRecord::encode);
  }

  /** The producer's metrics, for the bytes and records a page costs. */
  public Map<String, Double> metrics(String... names) {
    return producer.metrics(names);
  }

  @Override
  public void close() {
    if (ownsProducer) {
      producer.close();
    }
  }
}
