package dev.crawler.cluster;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the completions of a node's fetches to the crawl's done topic, keyed by queue key, so
 * a later owner of their partition that replays it knows which of its URLs need no fetch.
 * Thread-safe; {@link #take} returns once the broker has the whole batch.
 */
public final class DoneTopicProducer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DoneTopicProducer.class);
  private final QueueKeyedProducer producer;
  private final boolean ownsProducer;
  private final AtomicLong failures = new AtomicLong();

  /**
   * @param clientConfig the bootstrap servers and whatever else the crawl sets for its clients
   * @param compression {@code lz4} or {@code zstd}, or {@code none}
   */
  public DoneTopicProducer(ClusterTopics topics, Map<String, Object> clientConfig, String compression) {
    this(new QueueKeyedProducer(topics, clientConfig, compression), true);
  }

  /** Sends through a node's one producer, which its owner closes. */
  DoneTopicProducer(QueueKeyedProducer shared) {
    this(shared, false);
  }

  private DoneTopicProducer(QueueKeyedProducer producer, boolean ownsProducer) {
    this.producer = producer;
    this.ownsProducer = ownsProducer;
  }

  /** @return how many were sent */
  public int take(List<DoneRecord> done) {
    if (done.isEmpty()) {
      return 0;
    }
    producer.sendAll(producer.topics().done(), done, DoneRecord::queueKey, DoneRecord::value);
    return done.size();
  }

  /**
   * Sends one completion without waiting for the broker: a completion lost to this node's kill
   * costs one fetch again, by a later owner, and waiting would hold up every fetch by a round
   * trip. {@link #flush} before a partition leaves makes them all count.
   */
  public void send(DoneRecord record) {
    producer.send(producer.topics().done(), record.queueKey(), record.value(), e -> {
      long n = failures.incrementAndGet();
      if (n == 1 || Long.bitCount(n) == 1) {
        log.warn("{} completion(s) could not be sent to {} (latest: {}): a later owner of their partitions fetches "
            + "them again", n, producer.topics().done(), e.getMessage());
      }
    });
  }

  /** Waits until the broker has every completion sent so far. */
  public void flush() {
    producer.flush();
  }

  /** Completions the broker refused since the start. */
  public long failures() {
    return failures.get();
  }

  @Override
  public void close() {
    if (ownsProducer) {
      producer.close();
    }
  }
}
