package dev.crawler.cluster;

import java.util.List;
import java.util.Map;

/**
 * Sends the completions of a node's fetches to the crawl's done topic, keyed by queue key, so
 * a later owner of their partition that replays it knows which of its URLs need no fetch.
 * Thread-safe; {@link #take} returns once the broker has the whole batch.
 */
public final class DoneTopicProducer implements AutoCloseable {
  private final QueueKeyedProducer producer;

  /**
   * @param clientConfig the bootstrap servers and whatever else the crawl sets for its clients
   * @param compression {@code lz4} or {@code zstd}, or {@code none}
   */
  public DoneTopicProducer(ClusterTopics topics, Map<String, Object> clientConfig, String compression) {
    this.producer = new QueueKeyedProducer(topics, clientConfig, compression);
  }

  /** @return how many were sent */
  public int take(List<DoneRecord> done) {
    if (done.isEmpty()) {
      return 0;
    }
    producer.sendAll(producer.topics().done(), done, DoneRecord::queueKey, DoneRecord::value);
    return done.size();
  }

  @Override
  public void close() {
    producer.close();
  }
}
