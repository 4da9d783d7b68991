package dev.crawler.cluster;

import dev.crawler.frontier.FetchOutcome;
import dev.crawler.frontier.FrontierOptions;
import dev.crawler.frontier.FrontierStats;
import dev.crawler.frontier.HostQueues;
import dev.crawler.frontier.Lease;
import dev.crawler.frontier.Partitions;
import dev.crawler.intake.AdmittedUrl;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's queues: the frontiers of the partitions it owns, served to its fetch workers as one
 * {@link HostQueues}, and the {@link PartitionOwner} that the group's consumer tells of each
 * partition that comes and goes. Every ended fetch of a partition goes to the done topic
 * before its local completion, for a later owner's replay.
 *
 * <p>A partition that leaves ({@link #revoked}) first stops handing out leases; a lease already
 * out that has not made its request yet is put back ({@link #mayRequest} says no); the fetches
 * already under way end as they would, and the partition's state is closed once they have, or
 * after {@code handOverBound} at the latest. Only then does the callback return, and only then
 * does the group give the partition to its next owner: no two nodes fetch one host at once.
 * A lease still out after the bound is forgotten: its URL is fetched again by the next owner.
 *
 * <p>A host's delay holds across a move too: the leaving owner writes what each host still has
 * to wait ({@link HandOverTopic}), and the next owner's first request of a host waits that long
 * from when it took the partition. A partition whose last owner did not hand over (killed, or
 * cut off) holds every host the longest delay.
 */
final class OwnedQueues implements HostQueues, PartitionOwner {
  private static final Logger log = LoggerFactory.getLogger(OwnedQueues.class);
  /** How long a lost partition waits for its fetches under way: the group is moving on without it. */
  private static final Duration LOST_BOUND = Duration.ofSeconds(10);
  /** How long a worker sleeps when no owned queue is ready: a host's delay passing wakes nobody. */
  private static final long IDLE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
  /**
   * The longest hand-over hold a worker sleeps before a request ({@link #startRequest}); a longer
   * one (a Retry-After, a partition that was not handed over) goes back to the frontier, which
   * holds the host without a worker.
   */
  private static final long LONGEST_HOLD_SLEPT_MILLIS = 2_000;

  /** One owned partition: its state, whether it still hands out leases, and its leases out. */
  private static final class Owned {
    final PartitionState state;
    final RecentEnds ends;
    /** Set once its done records are read (see {@link #ready}); nothing is leased before. */
    volatile HandOverHolds holds = HandOverHolds.NONE;
    /**
     * Completes once it leases (or found it had left): its done records are read and its holds
     * are known; exceptionally if they could not be. Set by {@link #assigned}, before it returns.
     */
    volatile CompletableFuture<Void> ready;
    /** Set, under {@link #guard}, once it leases; a partition that leaves first hands nothing over. */
    volatile boolean leased;
    /**
     * Guards {@link #leased} and the start and stop of its leasing; {@link #ended} is signalled as
     * a lease or a completion under way ends. Not the object's monitor: virtual threads signal it.
     */
    final ReentrantLock guard = new ReentrantLock();
    final Condition ended = guard.newCondition();
    volatile boolean leasing = true;
    /** Set under the write lock once the state is closed: every later call of it is dropped. */
    boolean closed;
    final AtomicInteger leasesOut = new AtomicInteger();
    /** Leases whose visit ended and whose completion waits for the broker to have its links. */
    final AtomicInteger completing = new AtomicInteger();
    /** Calls into the state's frontier hold it shared; closing holds it alone. */
    final ReentrantReadWriteLock calls = new ReentrantReadWriteLock();

    Owned(PartitionState state, RecentEnds ends) {
      this.state = state;
      this.ends = ends;
    }
  }

  private final PartitionStates states;
  private final DoneTopicProducer done;
  private final PendingLinks pending;
  private final int partitions;
  private final Duration handOverBound;
  private final HandOverTopic handOvers;
  /** The longest delay a host can have: what every host waits when a hand-over is missing. */
  private final long longestDelayMillis;
  private final long maxRetryAfterMillis;
  /** The latest hand-overs read by {@link #assigning}, when, and why not; the consumer's thread only. */
  private final Map<Integer, Optional<HostWaits>> handedOver = new java.util.HashMap<>();
  private long assigningAt;
  private RuntimeException handOverFailure;
  private final Consumer<List<AdmittedUrl>> taken;
  private final Map<Integer, Owned> owned = new ConcurrentHashMap<>();
  private final CopyOnWriteArrayList<Owned> leasing = new CopyOnWriteArrayList<>();
  private final Map<Lease, Owned> leases = new ConcurrentHashMap<>();
  private final AtomicInteger turn = new AtomicInteger();
  /** Leases ended unfetched because another owner had fetched their URL meanwhile. */
  private final AtomicLong skippedDoneElsewhere = new AtomicLong();
  /** Partitions the group took without waiting for this node (its session expired). */
  private final AtomicLong lostPartitions = new AtomicLong();
  /** Set while the group has not been heard for a good part of its session: no lease, no request. */
  private volatile boolean groupSilent;
  private final AtomicLong silencePauses = new AtomicLong();
  /**
   * Idle workers wait on {@link #workChanged} for work. A j.u.c. condition, not a monitor: the
   * workers are virtual threads, and a monitor's timed wait can pin their carriers as they come
   * back into it (on a 2-core machine, both, and every worker stops for good).
   */
  private final ReentrantLock idle = new ReentrantLock();
  private final Condition workChanged = idle.newCondition();
  private volatile boolean workersEnded;

  /**
   * @param taken told of each batch of URLs a partition took (for the scope to learn seeds)
   * @param handOverBound the longest a revoked partition waits for its fetches under way
   * @param handOvers where a leaving partition's hosts' waits go, and a taken one's come from
   * @param politeness the crawl's delays, as every partition's frontier has them
   */
  OwnedQueues(PartitionStates states, DoneTopicProducer done, PendingLinks pending, int partitions,
      Duration handOverBound, HandOverTopic handOvers, FrontierOptions politeness, Consumer<List<AdmittedUrl>> taken) {
    this.handOvers = handOvers;
    this.longestDelayMillis = Math.max(politeness.defaultDelay().toMillis(), politeness.maxCrawlDelay().toMillis());
    this.maxRetryAfterMillis = politeness.maxRetryAfter().toMillis();
    this.pending = pending;
    this.states = states;
    this.done = done;
    this.partitions = partitions;
    this.handOverBound = handOverBound;
    this.taken = taken;
  }

  // ---- the group's side, all on the consumer's thread ----

  /** Reads the latest hand-over of every partition given, at once (the consumer's thread only). */
  @Override
  public void assigning(java.util.Collection<Integer> partitions) {
    assigningAt = System.nanoTime();
    handedOver.clear();
    handOverFailure = null;
    try {
      Map<Integer, HostWaits> latest = handOvers.latest(partitions);
      for (int p : partitions) {
        handedOver.put(p, Optional.ofNullable(latest.get(p)));
      }
    } catch (RuntimeException e) {
      handOverFailure = e;
      for (int p : partitions) {
        handedOver.put(p, Optional.empty());
      }
    }
  }

  /**
   * Opens the partition; it leases once its done records are read (beside the consumer's polls),
   * each host held what its last owner handed over, from now.
   */
  @Override
  public OptionalLong assigned(int partition) {
    long takenAt = handedOver.containsKey(partition) ? assigningAt : System.nanoTime();
    LastHandOver last = lastHandOver(partition);
    OptionalLong from = states.assigned(partition);
    PartitionState state = states.state(partition).orElseThrow();
    Owned o = new Owned(state, new RecentEnds(longestDelayMillis));
    owned.put(partition, o);
    // A catch-up or a start that fails fails this too: the consumer fails with it, and the node stops.
    o.ready = states.ready(partition).thenRun(() -> startLeasing(o, last, takenAt));
    return from;
  }

  @Override
  public CompletableFuture<Void> ready(int partition) {
    Owned o = owned.get(partition);
    return o == null ? CompletableFuture.completedFuture(null) : o.ready;
  }

  /** Its done records read: the partition's holds, then its leases (unless it is leaving already). */
  private void startLeasing(Owned o, LastHandOver last, long takenAt) {
    HandOverHolds holds;
    try {
      holds = holdsOf(o.state, last, takenAt);
    } catch (RuntimeException e) {
      log.warn("Partition {}: what its hosts still wait could not be worked out ({}); each of them waits {} ms (the "
          + "longest delay) before its first request here", o.state.partition(), e.toString(), longestDelayMillis);
      holds = HandOverHolds.of(Map.of(), longestDelayMillis, takenAt);
    }
    o.holds = holds;
    o.guard.lock();
    try {
      if (o.leasing) {
        o.leased = true;
        leasing.add(o);
      }
    } finally {
      o.guard.unlock();
    }
    wakeWorkers();
  }

  /** The latest hand-over of a partition, read by {@link #assigning} (or now), or why it could not be. */
  private record LastHandOver(Optional<HostWaits> latest, RuntimeException failure) {}

  private LastHandOver lastHandOver(int partition) {
    try {
      Optional<HostWaits> read = handedOver.remove(partition);
      if (read == null) {
        return new LastHandOver(handOvers.latest(partition), null);
      }
      return new LastHandOver(read, handOverFailure);
    } catch (RuntimeException e) {
      return new LastHandOver(Optional.empty(), e);
    }
  }

  /**
   * What the partition's hosts still wait, from {@code takenAt}: as its latest hand-over says, if
   * no owner fetched since (the done records end where it was written); else every host the
   * longest delay. Called once its done records are read: their end is where its checkpoint stands.
   */
  private HandOverHolds holdsOf(PartitionState state, LastHandOver last, long takenAt) {
    int partition = state.partition();
    long doneEnd = state.checkpoint().done();
    if (last.failure() != null) {
      log.warn("Partition {}: its last hand-over could not be read ({}); each of its hosts waits {} ms (the longest "
          + "delay) before its first request here", partition, last.failure().getMessage(), longestDelayMillis);
      return HandOverHolds.of(Map.of(), longestDelayMillis, takenAt);
    }
    Optional<HostWaits> latest = last.latest();
    if (latest.isPresent() && latest.get().doneOffset() >= doneEnd) {
      Map<String, Long> waits = latest.get().waitMillis();
      if (!waits.isEmpty()) {
        log.info("Partition {}: {} of its host(s) wait out what they still owed its last owner, at most {} ms",
            partition, waits.size(), waits.values().stream().mapToLong(Long::longValue).max().orElse(0));
      }
      return HandOverHolds.of(waits, latest.get().everyHostMillis(), takenAt);
    }
    if (latest.isEmpty() && doneEnd == 0) {
      return HandOverHolds.NONE;   // nobody fetched from it yet
    }
    log.info("Partition {}: fetched from since its last hand-over by an owner that did not hand it over (killed, or cut "
        + "off); each of its hosts waits {} ms (the longest delay) before its first request here", partition,
        longestDelayMillis);
    return HandOverHolds.of(Map.of(), longestDelayMillis, takenAt);
  }

  @Override
  public void take(int partition, List<AdmittedUrl> urls, long nextOffset) {
    states.take(partition, urls, nextOffset);
    taken.accept(urls);
    wakeWorkers();
  }

  @Override
  public void revoked(int partition) {
    revokedAll(List.of(partition));
  }

  /** Every partition stops leasing first, then each is handed over; all within one bound. */
  @Override
  public void revokedAll(java.util.Collection<Integer> partitions) {
    for (int p : partitions) {
      Owned o = owned.get(p);
      if (o != null) {
        stopLeasing(o);
      }
    }
    boolean cutOff = groupSilent;
    if (cutOff && !partitions.isEmpty()) {
      log.warn("Partition(s) {} leave while this node hears nothing from the group: their completions are not "
          + "flushed nor read back, and what their hosts still wait is not handed over (the next owner holds each "
          + "host the longest delay)", partitions.stream().sorted().toList());
    }
    // Cut off, a completion under way waits for the brokers too: the wait is a lost partition's.
    long deadline = System.nanoTime() + (cutOff ? LOST_BOUND : handOverBound).toNanos();
    for (int p : partitions) {
      handOver(p, true, deadline);
    }
  }

  /**
   * The workers have ended: a lease still out now was left open by a stop (the visit was cut
   * short), and comes back when its partition is next opened. A hand-over no longer waits for it.
   */
  void workersEnded() {
    workersEnded = true;
  }

  /**
   * Another node may own it already. Its fetches under way are still waited for, a short while:
   * this node rejoins the group only after, so a node that lost its partitions (a restarted
   * broker fences every member) does not get them back while its old fetches still run.
   */
  @Override
  public void lost(int partition) {
    Owned o = owned.get(partition);
    if (o != null) {
      lostPartitions.incrementAndGet();
      stopLeasing(o);
    }
    handOver(partition, false, System.nanoTime() + LOST_BOUND.toNanos());
  }

  /**
   * A silent group may give every partition away without a hand-over: no lease is given and no
   * request started until it answers again. Fetches already under way end as they would.
   */
  @Override
  public void groupSilent(boolean silent) {
    groupSilent = silent;
    states.groupSilent(silent);
    if (silent) {
      silencePauses.incrementAndGet();
    } else {
      wakeWorkers();
    }
  }

  /**
   * @param revoked whether the group waits for this hand-over (else the partition was lost, and
   *     another owner may have it already: what its hosts wait is not handed over)
   */
  private void handOver(int partition, boolean revoked, long deadline) {
    Owned o = owned.get(partition);
    if (o == null) {
      return;
    }
    stopLeasing(o);
    long started = System.nanoTime();
    int out = o.leasesOut.get();
    o.guard.lock();
    try {
      // Once the workers have ended, only the completions under way are waited for: the other
      // leases still out were left open by the stop.
      while ((workersEnded ? o.completing.get() : o.leasesOut.get()) > 0 && System.nanoTime() < deadline) {
        o.ended.awaitNanos(deadline - System.nanoTime());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      o.guard.unlock();
    }
    // Cut off from the group (a stop while the brokers are out of reach): each step below would
    // wait a minute or more for them. The partition leaves as a lost one, and its next owner holds
    // each of its hosts the longest delay.
    boolean cutOff = groupSilent;
    if (!cutOff) {
      done.flush();   // the next owner's replay must see what this one completed
    }
    // Read after stopLeasing: no catch-up ending later sets it. One that never leased owes
    // nothing: its last hand-over still stands for its next owner.
    Owed owed = revoked && !cutOff && o.leased ? owed(o) : null;
    o.calls.writeLock().lock();
    try {
      o.closed = true;
      owned.remove(partition);
      leases.values().removeIf(v -> v == o);
      if (revoked && !groupSilent) {
        states.revoked(partition);
      } else {
        states.lost(partition);
      }
    } finally {
      o.calls.writeLock().unlock();
    }
    if (owed != null && !groupSilent) {
      try {
        // After the state's close: its checkpoint then stands at the end of the done records.
        handOvers.write(partition, o.state.checkpoint().done(), owed.everyHostMillis(), owed.hosts());
      } catch (RuntimeException e) {
        log.warn("Partition {}: what its {} host(s) still wait could not be handed over ({}); its next owner holds "
            + "each of its hosts the longest delay", partition, owed.hosts().size(), e.getMessage());
      }
    }
    int left = o.leasesOut.get();
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    if (left > 0 && workersEnded) {
      log.info("Partition {} handed over with {} lease(s) its stop left open: their URLs come back to its next owner",
          partition, left);
    } else if (left > 0) {
      log.warn("Partition {} handed over with {} fetch(es) still under way after {} ms: their URLs are fetched again "
          + "by its next owner", partition, left, ms);
    } else if (out > 0) {
      log.info("Partition {} handed over after {} ms, once its {} fetch(es) under way ended", partition, ms, out);
    }
  }

  /** No lease from it from now on; a catch-up that ends later does not start it. */
  private void stopLeasing(Owned o) {
    o.guard.lock();
    try {
      o.leasing = false;
      leasing.remove(o);
    } finally {
      o.guard.unlock();
    }
  }

  /**
   * What each host of the partition still waits now; a fetch still under way counts as ending now.
   * Null if it cannot be known: nothing is then handed over, and the next owner holds every host.
   */
  private Owed owed(Owned o) {
    long now = System.nanoTime();
    leases.forEach((lease, of) -> {
      if (of == o) {
        o.ends.ended(lease.hostKey(), now, 0);
      }
    });
    try {
      Map<String, Long> hosts = o.ends.owed(now, host -> o.state.frontier().hostDelay(host).toMillis());
      o.holds.hostsStillHeld(now).forEach((host, left) -> hosts.merge(host, left, Math::max));
      return new Owed(o.holds.everyHostMillis(now), hosts);
    } catch (RuntimeException e) {
      log.warn("Partition {}: the delays of its hosts could not be read ({}); its next owner holds each of its hosts "
          + "the longest delay", o.state.partition(), e.toString());
      return null;
    }
  }

  /** What a leaving partition's hosts still wait: each of them, and all of them. */
  private record Owed(long everyHostMillis, Map<String, Long> hosts) {}

  // ---- the workers' side ----

  @Override
  public Optional<Lease> next(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + Math.min(timeout.toNanos(), TimeUnit.DAYS.toNanos(1));
    while (true) {
      Object[] now = groupSilent ? new Object[0] : leasing.toArray();
      int start = now.length == 0 ? 0 : Math.floorMod(turn.getAndIncrement(), now.length);
      for (int i = 0; i < now.length; i++) {
        Owned o = (Owned) now[(start + i) % now.length];
        Optional<Lease> lease = tryLease(o);
        if (lease.isPresent()) {
          return lease;
        }
      }
      long wait = deadline - System.nanoTime();
      if (wait <= 0) {
        return Optional.empty();
      }
      idle.lock();
      try {
        workChanged.awaitNanos(Math.min(wait, IDLE_POLL_NANOS));
      } finally {
        idle.unlock();
      }
    }
  }

  private Optional<Lease> tryLease(Owned o) throws InterruptedException {
    if (!o.calls.readLock().tryLock()) {
      return Optional.empty();   // being closed
    }
    try {
      if (o.closed || !o.leasing) {
        return Optional.empty();
      }
      while (true) {
        Optional<Lease> lease = o.state.frontier().next(Duration.ZERO);
        long held = lease.isPresent() ? o.holds.remainingMillis(lease.get().hostKey(), System.nanoTime()) : 0;
        if (held > LONGEST_HOLD_SLEPT_MILLIS) {
          // Longer than a worker should sleep: the frontier holds the host instead (as a Retry-After).
          o.state.frontier().complete(lease.get(), FetchOutcome.retryAfter(Duration.ofMillis(held)));
          continue;
        }
        if (lease.isPresent() && o.state.doneElsewhere(lease.get().url())) {
          // Fetched by another owner while this node did not own the partition; its done record is on the topic.
          o.state.frontier().complete(lease.get(), FetchOutcome.SKIPPED);
          skippedDoneElsewhere.incrementAndGet();
          continue;
        }
        lease.ifPresent(l -> {
          o.leasesOut.incrementAndGet();
          leases.put(l, o);
        });
        return lease;
      }
    } finally {
      o.calls.readLock().unlock();
    }
  }

  /**
   * Ends a lease once the links its visit sent are on the topic: at once if they are (or there
   * were none), else on a thread of its own when the broker acknowledges them, so the worker
   * goes on. Links the broker refused put the URL back in its queue (DEFERRED): it is fetched
   * again, and its links sent again.
   */
  @Override
  public void complete(Lease lease, FetchOutcome outcome) {
    CompletableFuture<Void> links = pending.drain();
    if (links == null || (links.isDone() && !links.isCompletedExceptionally())) {
      completeNow(lease, outcome);
      return;
    }
    Owned of = leases.get(lease);
    if (of != null) {
      of.completing.incrementAndGet();
    }
    links.whenComplete((ok, failed) -> Thread.ofVirtual().start(() -> {
      try {
        if (failed != null) {
          log.warn("The links of {} could not be sent ({}): it is fetched again", lease.url(), failed.getMessage());
        }
        completeNow(lease, failed == null ? outcome : FetchOutcome.DEFERRED);
      } catch (RuntimeException e) {
        try {
          completeNow(lease, FetchOutcome.FAILED);   // a lease left open would hold its host for ever
        } catch (RuntimeException again) {
          log.warn("The lease of {} could not be ended: {}; it is handed out again when its partition is reopened",
              lease.url(), e.toString());
        }
      } finally {
        if (of != null) {
          of.completing.decrementAndGet();
          signalEnded(of);
        }
      }
    }));
  }

  /** Ends the lease here; one that fails stays known, so the caller may end it again (as FAILED). */
  private void completeNow(Lease lease, FetchOutcome outcome) {
    Owned o = leases.get(lease);
    if (o == null) {
      log.debug("The lease of {} ended after its partition was handed over: dropped", lease.url());
      return;
    }
    boolean ended = false;
    o.calls.readLock().lock();
    try {
      if (!o.closed) {
        if (ends(outcome)) {
          done.send(DoneRecord.of(lease.hostKey(), lease.url(), outcome.kind()));
        }
        o.state.frontier().complete(lease, outcome);
        o.ends.ended(lease.hostKey(), System.nanoTime(), heldMillis(outcome));
      }
      ended = true;
    } finally {
      o.calls.readLock().unlock();
      if (ended && leases.remove(lease, o)) {
        o.leasesOut.decrementAndGet();
        signalEnded(o);
        wakeWorkers();
      }
    }
  }

  private static void signalEnded(Owned o) {
    o.guard.lock();
    try {
      o.ended.signalAll();
    } finally {
      o.guard.unlock();
    }
  }

  /** What an outcome asks its host to wait beyond its delay, as the frontier caps it. */
  private long heldMillis(FetchOutcome outcome) {
    if (outcome.kind() != FetchOutcome.Kind.RETRY_AFTER) {
      return 0;
    }
    Duration cap = Duration.ofMillis(maxRetryAfterMillis);
    return outcome.retryAfter().compareTo(cap) >= 0 ? maxRetryAfterMillis : outcome.retryAfter().toMillis();
  }

  /** Whether the URL leaves its queue: then it is done for the cluster too. */
  private static boolean ends(FetchOutcome outcome) {
    return switch (outcome.kind()) {
      case FETCHED, FAILED, SKIPPED -> true;
      case RETRY_AFTER, DEFERRED -> false;
    };
  }

  /** False once the lease's partition is leaving: the request is not made, and the URL stays queued. */
  @Override
  public boolean mayRequest(Lease lease) {
    Owned o = leases.get(lease);
    if (o == null || !o.leasing || groupSilent) {
      return false;
    }
    o.calls.readLock().lock();
    try {
      return !o.closed && o.state.frontier().mayRequest(lease);
    } finally {
      o.calls.readLock().unlock();
    }
  }

  @Override
  public void startRequest(Lease lease) throws InterruptedException {
    while (true) {
      Owned o = leases.get(lease);
      if (o == null) {
        // Handed over past the bound or lost: this node no longer knows the queue's turns, so
        // the request keeps at least the host's delay; its URL is fetched again by the next owner.
        Thread.sleep(lease.hostDelay());
        return;
      }
      long wait = o.holds.remainingMillis(lease.hostKey(), System.nanoTime());
      if (wait > 0) {
        Thread.sleep(wait);   // the wait its last owner handed over
        continue;
      }
      o.calls.readLock().lock();
      try {
        wait = o.closed ? 0 : o.state.frontier().tryStartRequest(lease);
      } finally {
        o.calls.readLock().unlock();
      }
      if (wait <= 0) {
        return;
      }
      Thread.sleep(wait);   // outside the lock: a hand-over does not wait for a request's turn
    }
  }

  @Override
  public void setCrawlDelay(String hostKey, Duration crawlDelay) {
    onQueue(hostKey, o -> o.state.frontier().setCrawlDelay(hostKey, crawlDelay));
  }

  @Override
  public void clearCrawlDelay(String hostKey) {
    onQueue(hostKey, o -> o.state.frontier().clearCrawlDelay(hostKey));
  }

  /** Runs {@code change} on the queue's partition if it is still owned here; a queue that left keeps its next owner's robots.txt. */
  private void onQueue(String hostKey, Consumer<Owned> change) {
    Owned o = owned.get(Partitions.of(hostKey, partitions));
    if (o == null) {
      return;
    }
    o.calls.readLock().lock();
    try {
      if (!o.closed) {
        change.accept(o);
      }
    } finally {
      o.calls.readLock().unlock();
    }
  }

  /** The sums over the owned partitions now. */
  @Override
  public FrontierStats stats() {
    long[] sums = new long[7];
    forEachState(state -> {
      FrontierStats f = state.frontier().stats();
      sums[0] += f.queuedUrls();
      sums[1] += f.hosts();
      sums[2] += f.readyHosts();
      sums[3] += f.leasedUrls();
      sums[4] += f.fetched();
      sums[5] += f.retried();
      sums[6] += f.failed();
    });
    return new FrontierStats(sums[0], sums[1], sums[2], sums[3], sums[4], sums[5], sums[6]);
  }

  /** Leases ended unfetched since the start because another owner had fetched their URL while this node did not own it. */
  long skippedDoneElsewhere() {
    return skippedDoneElsewhere.get();
  }

  /** Whether fetching is paused now because the group is silent. */
  boolean groupSilent() {
    return groupSilent;
  }

  /** How often fetching paused since the start because the group was silent. */
  long silencePauses() {
    return silencePauses.get();
  }

  /** Partitions lost since the start: taken by the group without waiting for this node's hand-over. */
  long lostPartitions() {
    return lostPartitions.get();
  }

  /** The partitions owned now, in no order. */
  List<Integer> ownedPartitions() {
    return List.copyOf(owned.keySet());
  }

  /** Runs {@code read} on each owned state, skipping one being closed. */
  void forEachState(Consumer<PartitionState> read) {
    for (Owned o : owned.values()) {
      if (!o.calls.readLock().tryLock()) {
        continue;
      }
      try {
        if (!o.closed) {
          read.accept(o.state);
        }
      } finally {
        o.calls.readLock().unlock();
      }
    }
  }

  private void wakeWorkers() {
    idle.lock();
    try {
      workChanged.signalAll();
    } finally {
      idle.unlock();
    }
  }
}
