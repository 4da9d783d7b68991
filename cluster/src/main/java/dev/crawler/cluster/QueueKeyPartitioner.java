package dev.crawler.cluster;

import dev.crawler.frontier.Partitions;
import java.util.Map;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.config.ConfigException;

/**
 * Routes a record keyed by its queue key to the crawl's partition of that key
 * ({@link Partitions#of}), so topic partition p holds exactly the URLs of frontier partition p
 * and its one owner sees every URL of its queues.
 *
 * <p>Configured with the crawl's partition count ({@link #PARTITIONS_CONFIG}) rather than trusting
 * the topic's: a topic that someone grew with {@code kafka-topics --alter} would otherwise move
 * queues to other partitions without a word. A record to a topic of another size is refused.
 */
public final class QueueKeyPartitioner implements Partitioner {
  /** The producer config key that carries the crawl's partition count to the partitioner. */
  public static final String PARTITIONS_CONFIG = "crawler.partitions";

  private int partitions;

  @Override
  public void configure(Map<String, ?> configs) {
    Object value = configs.get(PARTITIONS_CONFIG);
    if (value == null) {
      throw new ConfigException(PARTITIONS_CONFIG + " must be set to the crawl's partition count");
    }
    int p;
    try {
      p = Integer.parseInt(value.toString());
    } catch (NumberFormatException e) {
      throw new ConfigException(PARTITIONS_CONFIG, value, "not a whole number");
    }
    if (p < 1 || p > Partitions.MAX) {
      throw new ConfigException(PARTITIONS_CONFIG, value, "must be in [1, " + Partitions.MAX + "]");
    }
    this.partitions = p;
  }

  @Override
  public int partition(String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, Cluster cluster) {
    if (!(key instanceof String queueKey)) {
      throw new IllegalArgumentException("a record to " + topic + " must be keyed by its queue key (a String), not "
          + (key == null ? "null" : key.getClass().getName()));
    }
    Integer topicPartitions = cluster.partitionCountForTopic(topic);
    if (topicPartitions != null && topicPartitions != partitions) {
      throw new IllegalStateException("topic " + topic + " has " + topicPartitions + " partitions, the crawl has "
          + partitions + ": a crawl's partitions are fixed when it is created");
    }
    return Partitions.of(queueKey, partitions);
  }

  @Override
  public void close() {
  }
}
