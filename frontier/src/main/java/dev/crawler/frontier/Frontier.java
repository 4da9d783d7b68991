package dev.crawler.frontier;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import dev.crawler.frontier.internal.FrontierStore;
import dev.crawler.frontier.internal.GroupCommit;
import dev.crawler.frontier.internal.HostKeys;
import dev.crawler.frontier.internal.HostQueue;
import dev.crawler.frontier.internal.HostSchedule;
import dev.crawler.frontier.internal.HostState;
import dev.crawler.frontier.internal.PartitionCounters;
import dev.crawler.frontier.internal.Politeness;
import dev.crawler.frontier.internal.QueuedUrl;
import dev.crawler.frontier.internal.ScheduleKey;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Every URL waiting to be fetched, in per-host queues on disk, and the politeness schedule
 * that decides which host may be fetched next.
 *
 * <pre>{@code
 * try (Frontier frontier = Frontier.open(dir, FrontierOptions.defaults())) {
 *   frontier.offer(List.of(FrontierEntry.of("https://example.com/", "example.com", 0)));
 *   Optional<Lease> lease = frontier.next(Duration.ofSeconds(1));
 *   ... fetch lease.get().url() ...
 *   frontier.complete(lease.get(), FetchOutcome.FETCHED);
 * }
 * }</pre>
 *
 * <p>Guarantees:
 * <ul>
 *   <li>An offered URL is durable when {@code offer} returns (under the {@link SyncPolicy}),
 *       and leaves the store only when a lease on it completes as FETCHED or FAILED.
 *   <li>A leased URL stays on disk until completed; after a restart every lease not
 *       completed is handed out again. A completion is durable when {@code complete} returns.
 *   <li>A host is handed out only when its next allowed time has come and it has fewer
 *       fetches in flight than its connection limit; among such hosts the one allowed
 *       earliest goes first (see {@link HostSchedule} for the working set's bounds on this).
 *   <li>The heap holds at most {@link FrontierOptions#workingSetHosts()} ready hosts with a
 *       few URLs each read ahead, the hosts of outstanding leases, a bounded cache of host
 *       keys, and URLs read ahead for hosts out of memory within
 *       {@link FrontierOptions#readAheadBytes()}; never all hosts or all URLs.
 * </ul>
 * Thread-safe. One lock guards the scheduling state; every change is staged under it, so batches
 * reach RocksDB in the order they were decided, and written outside it, several threads' at once
 * (group commit, see {@code GroupCommit}); {@link #offer} encodes its entries
 * before taking it.
 */
public final class Frontier implements AutoCloseable {
  private final InstantSource clock;
  private final FrontierStore store;
  private final Politeness politeness;
  private final HostSchedule schedule;
  private final int partitions;
  private final PartitionCounters[] counters;
  private static final byte[] SCHEDULE_VALUE = {ScheduleKey.VALUE_VERSION};
  private final ReentrantLock lock = new ReentrantLock();
  /** Signalled when a host may have become ready. */
  private final Condition hostReady = lock.newCondition();
  private long lastSeq;
  private long leased;
  private boolean closed;
  /** Set by whichever thread meets a failed write; with the lock or without (awaitWritten). */
  private volatile RuntimeException failure;

  private Frontier(Path dir, FrontierOptions options) {
    this.clock = options.clock();
    this.partitions = options.partitions();
    this.store = FrontierStore.open(dir, options.sync() == SyncPolicy.FSYNC, options.blockCacheBytes(),
        options.memtableBytes(), partitions);
    try {
      this.politeness = new Politeness(options, new SplittableRandom());
      this.schedule = new HostSchedule(store, politeness, partitions, options.workingSetHosts(),
          options.knownHostsCache(), options.readAheadBytes());
      this.counters = new PartitionCounters[partitions];
      store.scan(store.counters, new byte[0], new byte[] {(byte) 0xFF}, (k, v) -> {
        PartitionCounters c = PartitionCounters.decode(k, v);
        checkState(c.partition < partitions, "counters of partition %s in a store of %s partitions", c.partition,
            partitions);
        counters[c.partition] = c;
        lastSeq = Math.max(lastSeq, c.lastSeq);
        return true;
      });
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
    // Leases do not survive a restart: nothing is in flight, and every URL leased before is
    // still in its queue at or after its host's first key, where the next read starts.
  }

  /** Opens (or creates) the frontier stored in {@code dir}. */
  public static Frontier open(Path dir, FrontierOptions options) {
    checkNotNull(dir, "dir");
    checkNotNull(options, "options");
    return new Frontier(dir, options);
  }

  /**
   * Adds URLs to their hosts' queues, in order. Durable when it returns. The frontier does
   * not deduplicate: URL-seen does, before.
   */
  public void offer(Collection<FrontierEntry> entries) {
    checkNotNull(entries, "entries");
    if (entries.isEmpty()) {
      return;
    }
    // Outside the lock: everything that does not depend on the frontier's state.
    int n = entries.size();
    Map<String, HostRef> batchHosts = new LinkedHashMap<>();
    HostRef[] refs = new HostRef[n];
    int[] priorities = new int[n];
    byte[][] values = new byte[n][];
    int i = 0;
    for (FrontierEntry e : entries) {
      checkNotNull(e, "entry %s of the batch is null", i);
      refs[i] = batchHosts.computeIfAbsent(e.hostKey(), this::hostRef);
      priorities[i] = e.priority();
      values[i] = QueuedUrl.value(e.url(), e.depth(), e.redirectHops(), e.via());
      i++;
    }
    long ticket;
    lock.lock();
    try {
      checkUsable();
      byte[][] keys = new byte[n][];
      long seq = lastSeq;
      for (i = 0; i < n; i++) {
        keys[i] = QueuedUrl.key(refs[i].partition, refs[i].utf8, priorities[i], ++seq);
      }
      // A host not known to be active needs its state read: new, idle, or active on disk.
      List<HostRef> unknown = new ArrayList<>();
      for (HostRef ref : batchHosts.values()) {
        if (!schedule.knownActive(ref.hostKey)) {
          unknown.add(ref);
        }
      }
      List<byte[]> stateKeys = new ArrayList<>(unknown.size());
      for (HostRef ref : unknown) {
        stateKeys.add(HostState.key(ref.partition, ref.utf8));
      }
      List<byte[]> stored = store.multiGet(store.hosts, stateKeys);
      long now = now();
      List<Activation> activations = new ArrayList<>();
      for (int u = 0; u < unknown.size(); u++) {
        HostRef ref = unknown.get(u);
        HostState state = stored.get(u) == null ? HostState.NEW : HostState.decode(stored.get(u));
        if (state.active()) {
          schedule.rememberActive(ref.hostKey, ref.utf8, ref.partition, state);
          continue;
        }
        // An idle host keeps the time its last fetch allowed: coming back does not skip its delay.
        long at = Math.max(now, state.nextAllowedMillis());
        HostState active = state.withActive(true, at);
        byte[] scheduleKey = ScheduleKey.encode(ref.partition, at, ref.utf8);
        activations.add(new Activation(ref, stateKeys.get(u), active, scheduleKey));
      }
      boolean[] touched = new boolean[partitions];
      for (i = 0; i < n; i++) {
        counters(refs[i].partition).queued++;
        touched[refs[i].partition] = true;
      }
      for (Activation a : activations) {
        counters(a.ref.partition).hosts++;
      }
      lastSeq = seq;
      List<byte[]> counterKeys = new ArrayList<>(1);
      List<byte[]> counterValues = new ArrayList<>(1);
      for (int p = 0; p < partitions; p++) {
        if (touched[p]) {
          counters[p].lastSeq = lastSeq;
          counterKeys.add(counters[p].key());
          counterValues.add(counters[p].encode());
        }
      }
      ticket = stage(batch -> {
        for (int k = 0; k < n; k++) {
          batch.put(store.queue, keys[k], values[k]);
        }
        for (Activation a : activations) {
          batch.put(store.hosts, a.stateKey, a.state.encode());
          batch.put(store.schedule, a.scheduleKey, SCHEDULE_VALUE);
        }
        for (int k = 0; k < counterKeys.size(); k++) {
          batch.put(store.counters, counterKeys.get(k), counterValues.get(k));
        }
      });

      // Hosts handed out from here on read their queues from disk, after the staged batch is
      // written (FrontierStore flushes what is staged before every read).
      for (i = 0; i < n; i++) {
        if (!refs[i].activatedNow) {
          schedule.offered(refs[i].hostKey, keys[i]);
        }
      }
      for (Activation a : activations) {
        a.ref.activatedNow = true;
        schedule.activated(a.ref.hostKey, a.ref.utf8, a.ref.partition, a.state, a.scheduleKey);
      }
      hostReady.signalAll();
    } finally {
      lock.unlock();
    }
    awaitWritten(ticket);
  }

  /**
   * Hands out a URL of a host that may be fetched now, waiting up to {@code timeout} for one;
   * empty if none became ready in time or the frontier was closed meanwhile. With a timeout
   * of zero it does not wait.
   */
  public Optional<Lease> next(Duration timeout) throws InterruptedException {
    checkNotNull(timeout, "timeout");
    checkArgument(!timeout.isNegative(), "timeout (%s) must be >= 0", timeout);
    long deadline = System.nanoTime() + Math.min(timeout.toNanos(), Long.MAX_VALUE / 4);
    lock.lockInterruptibly();
    try {
      while (true) {
        if (closed) {
          return Optional.empty();
        }
        checkUsable();
        long now = now();
        HostQueue h = schedule.firstReady(now);
        if (h != null) {
          Lease lease = leaseFrom(h, now);
          if (lease != null) {
            return Optional.of(lease);
          }
          continue;   // the host had nothing left to hand out
        }
        long wait = deadline - System.nanoTime();
        if (wait <= 0) {
          return Optional.empty();
        }
        long earliest = schedule.earliestMillis();
        if (earliest != Long.MAX_VALUE) {
          wait = Math.min(wait, TimeUnit.MILLISECONDS.toNanos(Math.max(1, earliest - now)));
        }
        hostReady.awaitNanos(wait);
      }
    } finally {
      lock.unlock();
    }
  }

  private Lease leaseFrom(HostQueue h, long now) {
    int limit = politeness.connectionLimit(h.state().connectionLimit());
    QueuedUrl url = h.next(store, limit);
    if (url == null) {
      if (h.inFlight() == 0) {
        deactivate(h);
      } else {
        schedule.updateReadiness(h);   // exhausted: out of the ready set until an offer or completion
      }
      return null;
    }
    h.lease(url.key());
    leased++;
    schedule.updateReadiness(h);
    return new Lease(this, url.key(), url.url(), h.hostKey, url.depth(), url.priority(), url.via(), url.redirectHops(),
        Instant.ofEpochMilli(now));
  }

  /** A host with nothing queued and nothing in flight leaves the schedule; its state remembers its time. */
  private void deactivate(HostQueue h) {
    assert h.inFlight() == 0 && h.exhausted() : h + " deactivated while it still has work";
    PartitionCounters c = counters(h.partition);
    c.hosts--;
    byte[] scheduleKey = h.scheduleKey();
    byte[] stateKey = HostState.key(h.partition, h.hostKeyUtf8);
    byte[] idle = h.state().withActive(false, h.nextAllowed()).encode();
    byte[] counterKey = c.key();
    byte[] counterValue = c.encode();
    // Not waited for: until it is written the host is active with an empty queue, which a
    // reopen finds and deactivates again; the next read or write takes it along.
    stage(batch -> {
      batch.delete(store.schedule, scheduleKey);
      batch.put(store.hosts, stateKey, idle);
      batch.put(store.counters, counterKey, counterValue);
    });
    schedule.deactivated(h);
  }

  /**
   * Ends a lease. FETCHED and FAILED remove the URL; RETRY_AFTER and DEFERRED keep it at the head of its
   * host's queue. The host's next allowed time follows from the outcome (see
   * {@link Politeness}). Durable when it returns.
   *
   * @throws IllegalArgumentException if the lease was already completed or is from another
   *     frontier (or from before a reopen)
   */
  public void complete(Lease lease, FetchOutcome outcome) {
    checkNotNull(lease, "lease");
    checkNotNull(outcome, "outcome");
    checkArgument(lease.owner == this,
        "lease of %s is from another frontier or from before a reopen; leases do not survive a close", lease.url());
    long ticket;
    lock.lock();
    try {
      checkUsable();
      HostQueue h = schedule.get(lease.hostKey());
      checkArgument(h != null && h.isLeased(lease.key), "lease of %s was already completed", lease.url());
      long now = now();
      HostState before = h.state();
      Politeness.Wait wait = politeness.after(outcome, before.crawlDelayMillis(), before.consecutiveFailures(), now);
      HostState after = before.withFailures(wait.consecutiveFailures());
      PartitionCounters c = counters(h.partition);
      boolean keep = outcome.kind() == FetchOutcome.Kind.RETRY_AFTER || outcome.kind() == FetchOutcome.Kind.DEFERRED;
      if (!keep) {
        c.queued--;
      }
      switch (outcome.kind()) {
        case FETCHED -> c.fetched++;
        case RETRY_AFTER -> c.retried++;
        case FAILED -> c.failed++;
        case DEFERRED -> { }   // not an end of the URL, not a failure: nothing to count
      }
      // Known empty and this was the last fetch in flight: the host goes idle now.
      boolean idle = !keep && h.exhausted() && h.inFlight() == 1;
      byte[] hostStateKey = HostState.key(h.partition, h.hostKeyUtf8);
      byte[] oldScheduleKey = h.scheduleKey();
      byte[] newScheduleKey;
      byte[] newState;
      if (idle) {
        c.hosts--;
        newScheduleKey = null;
        newState = after.withActive(false, wait.nextAllowedMillis()).encode();
      } else {
        newScheduleKey = ScheduleKey.encode(h.partition, wait.nextAllowedMillis(), h.hostKeyUtf8);
        newState = after.consecutiveFailures() != before.consecutiveFailures()
            ? after.withActive(true, wait.nextAllowedMillis()).encode() : null;
      }
      byte[] counterKey = c.key();
      byte[] counterValue = c.encode();
      ticket = stage(batch -> {
        if (!keep) {
          batch.singleDelete(store.queue, lease.key);
        }
        batch.delete(store.schedule, oldScheduleKey);
        if (newScheduleKey != null) {
          batch.put(store.schedule, newScheduleKey, SCHEDULE_VALUE);
        }
        if (newState != null) {
          batch.put(store.hosts, hostStateKey, newState);
        }
        batch.put(store.counters, counterKey, counterValue);
      });

      h.release(lease.key);
      leased--;
      h.setState(after);
      if (keep) {
        h.unread(lease.key);
      }
      if (idle) {
        schedule.deactivated(h);
      } else {
        schedule.reschedule(h, newScheduleKey);
        hostReady.signal();
      }
    } finally {
      lock.unlock();
    }
    // Outside the lock: the other fetchers lease and stage meanwhile, and the first to get
    // here writes all their completions in one write (GroupCommit).
    awaitWritten(ticket);
  }

  /**
   * Sets a host's robots.txt Crawl-delay. The delay between its fetches becomes
   * {@code max(defaultDelay, min(crawlDelay, maxCrawlDelay))} from its next completion on.
   * Kept while the host is idle, and across restarts.
   */
  public void setCrawlDelay(String hostKey, Duration crawlDelay) {
    checkNotNull(crawlDelay, "crawlDelay");
    checkArgument(!crawlDelay.isNegative(), "crawlDelay (%s) must be >= 0", crawlDelay);
    long millis = crawlDelay.toMillis();
    updateHostState(hostKey, s -> s.withCrawlDelay(millis));
  }

  /** Sets how many fetches of a host may be in flight at once, in [1, 1024]; kept across restarts. */
  public void setConnectionLimit(String hostKey, int connections) {
    checkArgument(connections >= 1 && connections <= FrontierOptions.MAX_CONNECTIONS_PER_HOST,
        "connections (%s) must be in [1, %s]", connections, FrontierOptions.MAX_CONNECTIONS_PER_HOST);
    updateHostState(hostKey, s -> s.withConnectionLimit(connections));
  }

  private void updateHostState(String hostKey, java.util.function.UnaryOperator<HostState> change) {
    checkNotNull(hostKey, "hostKey");
    HostRef ref = hostRef(hostKey);
    byte[] key = HostState.key(ref.partition, ref.utf8);
    long ticket;
    lock.lock();
    try {
      checkUsable();
      HostQueue h = schedule.get(hostKey);
      HostState next;
      byte[] value;
      if (h != null) {
        next = change.apply(h.state());
        value = next.withActive(true, h.nextAllowed()).encode();
      } else {
        byte[] stored = store.get(store.hosts, key);
        next = change.apply(stored == null ? HostState.NEW : HostState.decode(stored));
        value = next.encode();
      }
      ticket = stage(batch -> batch.put(store.hosts, key, value));
      if (h != null) {
        h.setState(next);
        schedule.updateReadiness(h);
        hostReady.signalAll();
      } else {
        schedule.storedStateChanged(hostKey, next);
      }
    } finally {
      lock.unlock();
    }
    awaitWritten(ticket);
  }

  /** The frontier's counts now. */
  public FrontierStats stats() {
    lock.lock();
    try {
      checkUsable();
      long queued = 0;
      long hosts = 0;
      long fetched = 0;
      long retried = 0;
      long failed = 0;
      for (PartitionCounters c : counters) {
        if (c != null) {
          queued += c.queued;
          hosts += c.hosts;
          fetched += c.fetched;
          retried += c.retried;
          failed += c.failed;
        }
      }
      return new FrontierStats(queued, hosts, schedule.readyAt(now()), leased, fetched, retried, failed);
    } finally {
      lock.unlock();
    }
  }

  /** Bytes of the store's SST files on disk (after {@link #flush()}, all of its data). */
  public long diskBytes() {
    lock.lock();
    try {
      checkUsable();
      return store.property("rocksdb.live-sst-files-size");
    } finally {
      lock.unlock();
    }
  }

  /** Writes memtables to disk files; not needed for durability (the write-ahead log gives it). */
  public void flush() {
    lock.lock();
    try {
      checkUsable();
      store.flush();
    } finally {
      lock.unlock();
    }
  }

  /** A RocksDB integer property summed over the column families; for the benchmark. */
  long storeProperty(String name) {
    lock.lock();
    try {
      checkUsable();
      return store.property(name);
    } finally {
      lock.unlock();
    }
  }

  /** Database writes made since open, each holding one or more operations (group commit); for tests and the benchmark. */
  long storeWrites() {
    return store.writes();
  }

  /** Iterators opened on the store since open; for tests and the benchmark. */
  long storeIterators() {
    return store.iteratorsOpened();
  }

  /** Seeks made by scans since open (one per host whose queue a refill reads); for tests and the benchmark. */
  long storeSeeks() {
    return store.seeks();
  }

  /** Checks the working set's invariants ({@link HostSchedule}); O(hosts in memory), for tests. */
  boolean invariantsHold() {
    lock.lock();
    try {
      return schedule.invariantsHold();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Closes the store. Outstanding leases are dropped: their URLs are still queued and are
   * handed out again after a reopen. Threads waiting in {@link #next} return empty.
   */
  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      hostReady.signalAll();
      store.close();
    } finally {
      lock.unlock();
    }
  }

  /** Stages changes for the next write; under the lock, so batches are staged in the order decided. */
  private long stage(GroupCommit.Changes changes) {
    assert lock.isHeldByCurrentThread();
    try {
      return store.stage(changes);
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  /** Waits, without the lock, until the changes staged with {@code ticket} are durable. */
  private void awaitWritten(long ticket) {
    assert !lock.isHeldByCurrentThread();
    try {
      store.awaitWritten(ticket);
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  /** After a failed write the in-memory state may be ahead of the disk: refuse further use. */
  private RuntimeException failed(RuntimeException e) {
    if (failure == null) {
      failure = e;
    }
    return e;
  }

  private void checkUsable() {
    checkState(!closed, "frontier is closed");
    if (failure != null) {
      throw new IllegalStateException("frontier stopped after a failed write; reopen it", failure);
    }
  }

  private long now() {
    long now = clock.millis();
    checkState(now >= 0, "clock reads %s ms, before 1970", now);
    return now;
  }

  private PartitionCounters counters(int partition) {
    PartitionCounters c = counters[partition];
    if (c == null) {
      c = new PartitionCounters(partition);
      counters[partition] = c;
    }
    return c;
  }


  private HostRef hostRef(String hostKey) {
    byte[] utf8 = HostKeys.utf8(hostKey);
    return new HostRef(hostKey, utf8, HostKeys.partition(utf8, partitions));
  }

  /** A host of one offer batch. */
  private static final class HostRef {
    final String hostKey;
    final byte[] utf8;
    final int partition;
    boolean activatedNow;

    HostRef(String hostKey, byte[] utf8, int partition) {
      this.hostKey = hostKey;
      this.utf8 = utf8;
      this.partition = partition;
    }
  }

  private record Activation(HostRef ref, byte[] stateKey, HostState state, byte[] scheduleKey) {}
}
