package dev.crawler.cluster;

import dev.crawler.intake.AdmittedUrl;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A {@link PartitionOwner} that keeps what it was given, and checks against the other owners of
 * one test (they share {@code holders}) that no partition ever has two at once.
 */
final class RecordingOwner implements PartitionOwner {
  record Taken(int partition, AdmittedUrl url) {}

  private final String name;
  private final ConcurrentMap<Integer, String> holders;
  private final Map<Integer, Long> checkpoints;
  private final List<String> events;
  private final Set<Integer> owned = new TreeSet<>();
  private final List<Taken> taken = new ArrayList<>();
  private final Map<Integer, Long> nextOffsets = new HashMap<>();
  private final List<String> violations = new ArrayList<>();
  private volatile long revokeMillis;
  private final Map<Integer, CompletableFuture<Void>> readiness = new ConcurrentHashMap<>();

  /**
   * @param holders partition to the name of its owner now, shared by a test's owners
   * @param checkpoints the offsets this owner's "local state" holds, by partition
   * @param events every owner's assignments and revocations, in the order they happened
   */
  RecordingOwner(String name, ConcurrentMap<Integer, String> holders, Map<Integer, Long> checkpoints,
      List<String> events) {
    this.name = name;
    this.holders = holders;
    this.checkpoints = Map.copyOf(checkpoints);
    this.events = events;
  }

  /** Each revocation takes this long before it lets go, as an owner ending its fetches would. */
  RecordingOwner revokingIn(long millis) {
    this.revokeMillis = millis;
    return this;
  }

  /** Partition {@code partition} is not ready for its records until the future returned is completed. */
  CompletableFuture<Void> notReadyUntilCompleted(int partition) {
    return readiness.computeIfAbsent(partition, p -> new CompletableFuture<>());
  }

  @Override
  public CompletableFuture<Void> ready(int partition) {
    return readiness.getOrDefault(partition, CompletableFuture.completedFuture(null));
  }

  static ConcurrentMap<Integer, String> holders() {
    return new ConcurrentHashMap<>();
  }

  @Override
  public synchronized OptionalLong assigned(int partition) {
    String before = holders.putIfAbsent(partition, name);
    if (before != null) {
      violations.add("partition " + partition + " given to " + name + " while " + before + " holds it");
    }
    owned.add(partition);
    events.add(name + " assigned " + partition);
    Long checkpoint = checkpoints.get(partition);
    return checkpoint == null ? OptionalLong.empty() : OptionalLong.of(checkpoint);
  }

  @Override
  public synchronized void take(int partition, List<AdmittedUrl> urls, long nextOffset) {
    if (!owned.contains(partition)) {
      violations.add(name + " given records of partition " + partition + ", which it does not own");
    }
    for (AdmittedUrl url : urls) {
      taken.add(new Taken(partition, url));
    }
    nextOffsets.put(partition, nextOffset);
  }

  @Override
  public synchronized void revoked(int partition) {
    try {
      Thread.sleep(revokeMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    release(partition, "revoked");
  }

  @Override
  public synchronized void lost(int partition) {
    release(partition, "lost");
  }

  private void release(int partition, String how) {
    owned.remove(partition);
    holders.remove(partition, name);
    events.add(name + " " + how + " " + partition);
  }

  synchronized Set<Integer> owned() {
    return new TreeSet<>(owned);
  }

  synchronized List<Taken> taken() {
    return new ArrayList<>(taken);
  }

  synchronized Map<Integer, Long> nextOffsets() {
    return new HashMap<>(nextOffsets);
  }

  synchronized List<String> violations() {
    return new ArrayList<>(violations);
  }
}
