package dev.crawler.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * A crawl's partitions as Kafka sees them ({@code crawler cluster status}): each partition's
 * owner, its URL records, how many of them its owner has not taken yet (the lag), and its done
 * records (fetches ended, cluster-wide). Read from the brokers alone, so it works with any node
 * up or down.
 */
public final class ClusterStatus {
  /**
   * One partition.
   *
   * @param owner the node that owns it now, or empty
   * @param urlRecords records on its URL topic partition (admitted links, repeats included)
   * @param lag URL records its owner has not taken yet (committed)
   * @param doneRecords fetches of its URLs that ended
   */
  public record Partition(int partition, String owner, long urlRecords, long lag, long doneRecords) {}

  /** The whole crawl: its partitions in order, and the nodes of its group. */
  public record Crawl(String name, List<Partition> partitions, List<String> nodes) {
    public long urlRecords() {
      return partitions.stream().mapToLong(Partition::urlRecords).sum();
    }

    public long lag() {
      return partitions.stream().mapToLong(Partition::lag).sum();
    }

    public long doneRecords() {
      return partitions.stream().mapToLong(Partition::doneRecords).sum();
    }

    /** The partitions of each node, by node. */
    public Map<String, List<Integer>> owners() {
      Map<String, List<Integer>> owned = new TreeMap<>();
      for (Partition p : partitions) {
        if (!p.owner().isEmpty()) {
          owned.computeIfAbsent(p.owner(), k -> new ArrayList<>()).add(p.partition());
        }
      }
      return owned;
    }
  }

  private ClusterStatus() {}

  /** Reads the crawl's state from the brokers. */
  public static Crawl read(ClusterTopics topics, Map<String, Object> clients, Duration timeout)
      throws InterruptedException, ExecutionException, TimeoutException {
    try (Admin admin = Admin.create(clients)) {
      long ms = timeout.toMillis();
      Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
      for (int p = 0; p < topics.partitions(); p++) {
        ends.put(new TopicPartition(topics.urls(), p), OffsetSpec.latest());
        ends.put(new TopicPartition(topics.done(), p), OffsetSpec.latest());
      }
      Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end = admin.listOffsets(ends).all()
          .get(ms, TimeUnit.MILLISECONDS);
      Map<TopicPartition, OffsetAndMetadata> committed = Map.of();
      List<MemberDescription> members = List.of();
      try {
        committed = admin.listConsumerGroupOffsets(topics.groupId()).partitionsToOffsetAndMetadata()
            .get(ms, TimeUnit.MILLISECONDS);
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(topics.groupId()))
            .describedGroups().get(topics.groupId()).get(ms, TimeUnit.MILLISECONDS);
        members = List.copyOf(group.members());
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof GroupIdNotFoundException)) {
          throw e;
        }
        // No node has joined yet: nothing owned, nothing taken.
      }
      Map<Integer, String> owner = new HashMap<>();
      List<String> nodes = new ArrayList<>();
      for (MemberDescription m : members) {
        nodes.add(m.clientId());
        for (TopicPartition tp : m.assignment().topicPartitions()) {
          if (tp.topic().equals(topics.urls())) {
            owner.put(tp.partition(), m.clientId());
          }
        }
      }
      List<Partition> partitions = new ArrayList<>();
      for (int p = 0; p < topics.partitions(); p++) {
        TopicPartition urls = new TopicPartition(topics.urls(), p);
        long urlEnd = end.get(urls).offset();
        OffsetAndMetadata taken = committed == null ? null : committed.get(urls);
        long lag = urlEnd - (taken == null ? 0 : taken.offset());
        partitions.add(new Partition(p, owner.getOrDefault(p, ""), urlEnd, Math.max(0, lag),
            end.get(new TopicPartition(topics.done(), p)).offset()));
      }
      nodes.sort(null);
      return new Crawl(topics.crawl(), partitions, nodes);
    }
  }

  /** The status as a table for people: totals first, then a line a partition. */
  public static String format(Crawl crawl) {
    StringBuilder out = new StringBuilder();
    out.append(String.format("Crawl %s: %d partitions, %d node(s) in the group: %s%n", crawl.name(),
        crawl.partitions().size(), crawl.nodes().size(), crawl.nodes().isEmpty() ? "none" : String.join(", ",
            crawl.nodes())));
    out.append(String.format("Totals: %,d URL records (links admitted, repeats included), %,d not taken yet, "
        + "%,d fetches ended%n", crawl.urlRecords(), crawl.lag(), crawl.doneRecords()));
    crawl.owners().forEach((node, owned) -> out.append(String.format("  %s owns %d: %s%n", node, owned.size(), owned)));
    out.append(String.format("%9s  %-20s %12s %10s %12s%n", "partition", "owner", "URL records", "lag", "ended"));
    for (Partition p : crawl.partitions()) {
      out.append(String.format("%9d  %-20s %,12d %,10d %,12d%n", p.partition(), p.owner().isEmpty() ? "-" : p.owner(),
          p.urlRecords(), p.lag(), p.doneRecords()));
    }
    return out.toString();
  }
}
