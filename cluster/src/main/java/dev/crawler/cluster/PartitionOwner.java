package dev.crawler.cluster;

import dev.crawler.intake.AdmittedUrl;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * What a node does with the partitions the crawl's group gives it: the per-partition state
 * (URL-seen filter and store, frontier group) that a {@link UrlTopicConsumer} feeds. All calls
 * but {@link #groupSilent}{@code (true)} come from the consumer's one thread.
 */
public interface PartitionOwner {
  /**
   * Partition {@code partition} is now this node's. Called before any of its records.
   *
   * @return the offset of the URL topic its local state holds everything before (its
   *     checkpoint), to continue from; empty if this node has no state of it, so the partition
   *     is replayed from its first record
   */
  OptionalLong assigned(int partition);

  /**
   * Completes once {@code partition}, just {@link #assigned}, may be given its URL records; until
   * then the consumer holds them back. An owner that must first read much (its done records)
   * reads beside the consumer's polls this way, not in the group's callback. Completes
   * exceptionally if the owner cannot take the partition: the consumer then fails, and the node
   * with it, so that the group gives its partitions to others. Need not complete if the
   * partition leaves first.
   */
  default CompletableFuture<Void> ready(int partition) {
    return CompletableFuture.completedFuture(null);
  }

  /**
   * Told of the partitions the group gives this node, before {@link #assigned} of each: so what
   * they all need can be read at once.
   */
  default void assigning(java.util.Collection<Integer> partitions) {}

  /**
   * The next URLs of one partition, in the order produced. Durable when it returns: the
   * consumer then commits their offsets, and a restart of the node never asks for them again.
   *
   * @param nextOffset the offset after the last of them, which the state should record as its
   *     checkpoint with them
   */
  void take(int partition, List<AdmittedUrl> urls, long nextOffset);

  /**
   * Partition {@code partition} is leaving this node: stop leasing its URLs, end its fetches and
   * close its state before returning, for its next owner starts only once this returns.
   */
  void revoked(int partition);

  /** Several partitions leave at once: by default one after the other. */
  default void revokedAll(java.util.Collection<Integer> partitions) {
    partitions.forEach(this::revoked);
  }

  /**
   * The group took {@code partition} without waiting for this node (its session expired): another
   * node may own it already. Stop at once; nothing of it may be committed.
   */
  void lost(int partition);

  /**
   * The node has heard nothing from the group for a good part of its session ({@code true}), or
   * hears from it again ({@code false}): stop starting fetches meanwhile, for the group may give
   * the partitions away without a hand-over. {@code true} comes from the watch's own thread,
   * {@code false} from the consumer's, after a poll that ran whatever the group's answer set off.
   */
  default void groupSilent(boolean silent) {}
}
