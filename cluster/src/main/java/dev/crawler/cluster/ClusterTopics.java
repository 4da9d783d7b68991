package dev.crawler.cluster;

import static com.google.common.base.Preconditions.checkArgument;

import dev.crawler.frontier.Partitions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * A crawl's topics on Kafka, named from the crawl's name, each with the crawl's P partitions
 * and keyed by queue key, so partition p of each is the frontier's partition p:
 * <ul>
 *   <li>{@code <crawl>.urls}: every URL a node's intake admitted, for the owner of its partition;
 *   <li>{@code <crawl>.done}: the URLs whose fetch ended, for a new owner's replay to subtract;
 *   <li>{@code <crawl>.seeds}: the crawl's seeds, one partition, which every node reads whole, for
 *       the scope (same-host and same-domain are relative to the seeds);
 *   <li>{@code <crawl>.handovers}: what each host of a partition still had to wait when the
 *       partition left its owner ({@link HostWaits}), for the next owner's first requests.
 * </ul>
 * The first three keep their records for ever: they are the crawl's truth, which a node given a
 * partition without a local checkpoint replays. The hand-overs keep theirs a week: only the
 * latest of a partition is read, and no wait a host owes lasts that long. P is recorded as the topics' partition count; a crawl
 * opened with another P is refused, since every queue would move to another partition.
 *
 * @param crawl the crawl's name: the topics' prefix and the consumer group's id
 * @param partitions the crawl's partition count P, as {@code frontier.partitions}
 */
public record ClusterTopics(String crawl, int partitions) {
  /** Kafka's topic names: at most 249 of these characters; the longest suffix takes 10. */
  private static final Pattern CRAWL_NAME = Pattern.compile("[a-zA-Z0-9._-]{1,200}");
  private static final Duration HANDOVER_RETENTION = Duration.ofDays(7);

  public ClusterTopics {
    checkArgument(crawl != null && CRAWL_NAME.matcher(crawl).matches(),
        "crawl name (%s) must be 1 to 200 of a-z, A-Z, 0-9, '.', '_' and '-'", crawl);
    checkArgument(partitions >= 1 && partitions <= Partitions.MAX, "partitions (%s) must be in [1, %s]", partitions,
        Partitions.MAX);
  }

  public String urls() {
    return crawl + ".urls";
  }

  public String done() {
    return crawl + ".done";
  }

  public String seeds() {
    return crawl + ".seeds";
  }

  public String handovers() {
    return crawl + ".handovers";
  }

  /** The consumer group of the crawl's nodes. */
  public String groupId() {
    return crawl;
  }

  /**
   * Creates whichever of the crawl's topics is missing, with P partitions, and checks that
   * those that exist have P. Safe when several nodes start at once: a topic another node
   * created meanwhile is checked like any existing one.
   *
   * @param replicas the replication factor of a topic created here
   * @throws IllegalStateException if a topic exists with another partition count
   */
  public void ensure(Admin admin, short replicas, Duration timeout)
      throws InterruptedException, ExecutionException, TimeoutException {
    List<String> names = List.of(urls(), done(), handovers());
    Set<String> existing = admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    List<NewTopic> missing = new ArrayList<>();
    for (String name : List.of(urls(), done(), seeds(), handovers())) {
      if (!existing.contains(name)) {
        String retention = name.equals(handovers()) ? Long.toString(HANDOVER_RETENTION.toMillis()) : "-1";
        missing.add(new NewTopic(name, name.equals(seeds()) ? 1 : partitions, replicas).configs(Map.of(
            TopicConfig.RETENTION_MS_CONFIG, retention,
            TopicConfig.RETENTION_BYTES_CONFIG, "-1",
            TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE)));
      }
    }
    if (!missing.isEmpty()) {
      var created = admin.createTopics(missing).values();
      for (var entry : created.entrySet()) {
        try {
          entry.getValue().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw e;
          }
        }
      }
    }
    checkPartitions(admin, names, timeout);
  }

  /**
   * Checks each topic's partition count, and waits until every partition has a leader that holds
   * its log: a broker names a new partition's leader in its metadata a moment before that leader
   * takes writes, and a producer's first batches would be refused (and retried, with a warning
   * each) until it does.
   */
  private void checkPartitions(Admin admin, List<String> names, Duration timeout)
      throws InterruptedException, ExecutionException, TimeoutException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        Map<String, TopicDescription> described = admin.describeTopics(names).allTopicNames()
            .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        boolean led = true;
        for (String name : names) {
          List<TopicPartitionInfo> of = described.get(name).partitions();
          if (of.size() != partitions) {
            throw new IllegalStateException("topic " + name + " has " + of.size() + " partitions, but crawl " + crawl
                + " is opened with " + partitions + ": a crawl's partitions are fixed when it is created (open it with "
                + of.size() + ", or start a crawl of another name)");
          }
          led &= of.stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty());
        }
        if (led && leadersHoldLogs(admin, described, timeout)) {
          return;
        }
        if (System.nanoTime() > deadline) {
          throw new TimeoutException("the partitions of " + names + " have no leader after " + timeout.toSeconds() + " s");
        }
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
          throw e;
        }
      }
      Thread.sleep(50);
    }
  }

  private static boolean leadersHoldLogs(Admin admin, Map<String, TopicDescription> described, Duration timeout)
      throws InterruptedException, ExecutionException, TimeoutException {
    Map<TopicPartition, Integer> leaders = new HashMap<>();
    described.forEach((name, d) -> d.partitions().forEach(p -> leaders.put(new TopicPartition(name, p.partition()),
        p.leader().id())));
    Map<Integer, Map<String, LogDirDescription>> dirs = admin.describeLogDirs(new HashSet<>(leaders.values()))
        .allDescriptions().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    for (Map.Entry<TopicPartition, Integer> e : leaders.entrySet()) {
      Map<String, LogDirDescription> ofLeader = dirs.getOrDefault(e.getValue(), Map.of());
      if (ofLeader.values().stream().noneMatch(d -> d.replicaInfos().containsKey(e.getKey()))) {
        return false;
      }
    }
    return true;
  }
}
