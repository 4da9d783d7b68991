package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.frontier.Partitions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class QueueKeyPartitionerTest {
  static QueueKeyPartitioner partitioner(int partitions) {
    QueueKeyPartitioner p = new QueueKeyPartitioner();
    p.configure(Map.of(QueueKeyPartitioner.PARTITIONS_CONFIG, Integer.toString(partitions)));
    return p;
  }

  static Cluster clusterWith(String topic, int partitions) {
    Node node = new Node(1, "127.0.0.1", 9092);
    List<PartitionInfo> infos = IntStream.range(0, partitions)
        .mapToObj(p -> new PartitionInfo(topic, p, node, new Node[] {node}, new Node[] {node})).toList();
    return new Cluster("c", List.of(node), infos, Set.of(), Set.of());
  }

  @Test
  void everyKeyGoesToTheFrontiersPartitionOfIt() {
    SplittableRandom random = new SplittableRandom(42);
    for (int partitions : new int[] {1, 7, 64, 256, 4096}) {
      QueueKeyPartitioner partitioner = partitioner(partitions);
      Cluster cluster = clusterWith("c.urls", partitions);
      for (int i = 0; i < 20_000; i++) {
        String key = randomKey(random);
        assertThat(partitioner.partition("c.urls", key, null, null, null, cluster))
            .as("%s of %s", key, partitions).isEqualTo(Partitions.of(key, partitions));
      }
    }
  }

  @Test
  void aTopicOfAnotherSizeIsRefusedNotRoutedByItsOwnSize() {
    QueueKeyPartitioner partitioner = partitioner(8);
    assertThatThrownBy(() -> partitioner.partition("c.urls", "a.com", null, null, null, clusterWith("c.urls", 12)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("topic c.urls has 12 partitions, the crawl has 8");
  }

  @Test
  void aRecordWithoutAQueueKeyIsRefused() {
    QueueKeyPartitioner partitioner = partitioner(8);
    assertThatThrownBy(() -> partitioner.partition("c.urls", null, null, null, null, clusterWith("c.urls", 8)))
        .hasMessageContaining("must be keyed by its queue key (a String), not null");
  }

  @Test
  void thePartitionCountMustBeConfigured() {
    assertThatThrownBy(() -> new QueueKeyPartitioner().configure(Map.of()))
        .isInstanceOf(ConfigException.class).hasMessageContaining("crawler.partitions must be set");
    assertThatThrownBy(() -> partitioner(0)).isInstanceOf(ConfigException.class).hasMessageContaining("[1, 65536]");
  }

  /** Host names, domains, host:port and addresses, as the queue keys of each politeness.queue-by. */
  static String randomKey(SplittableRandom random) {
    return switch (random.nextInt(4)) {
      case 0 -> "h" + random.nextInt(1_000_000) + ".example.com";
      case 1 -> "d" + random.nextInt(1_000_000) + ".co.uk";
      case 2 -> "site" + random.nextInt(10_000) + ".org:" + (1024 + random.nextInt(60_000));
      default -> "10." + random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(256);
    };
  }
}
