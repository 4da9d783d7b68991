package dev.crawler.frontier;

import static com.google.common.base.Preconditions.checkArgument;

import dev.crawler.frontier.internal.FrontierStore;
import dev.crawler.frontier.internal.GroupCommit;
import dev.crawler.frontier.internal.HostQueue;
import dev.crawler.frontier.internal.HostSchedule;
import dev.crawler.frontier.internal.HostState;
import dev.crawler.frontier.internal.PartitionCounters;
import dev.crawler.frontier.internal.Politeness;
import dev.crawler.frontier.internal.QueuedUrl;
import dev.crawler.frontier.internal.ScheduleKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

/**
 * The partitions {@code p} with {@code p % groups == group}, their hosts' schedule and working set,
 * under one lock, writing through a group commit of their own. No key of one group is read or
 * written by another, so groups run side by side: with one group every operation passes through
 * one lock and one write at a time, and a second fetcher thread only waits (two threads do less
 * than one); with two, two threads lease, stage and write at once.
 *
 * <p>Every change is staged under the lock, so batches reach RocksDB in the order they were
 * decided, and written outside it ({@link #awaitWritten}). Called by {@link Frontier} only.
 */
final class PartitionGroup {
  private static final byte[] SCHEDULE_VALUE = {ScheduleKey.VALUE_VERSION};

  private final Frontier owner;
  /** This group's database (its own, or a view of the root's with a group commit of its own). */
  private final FrontierStore store;
  private final Politeness politeness;
  private final HostSchedule schedule;
  /** Every partition's counters, indexed by partition; this group touches only its own, under its lock. */
  private final PartitionCounters[] counters;
  private final int[] served;
  private final ReentrantLock lock = new ReentrantLock();
  private long lastSeq;
  private long leased;
  private boolean closed;

  PartitionGroup(Frontier owner, FrontierStore view, FrontierOptions options, int group, int groups,
      PartitionCounters[] counters, long lastSeq) {
    int partitions = options.partitions();
    this.owner = owner;
    this.store = view;
    this.counters = counters;
    this.lastSeq = lastSeq;
    this.politeness = new Politeness(options, new SplittableRandom());
    // The memory bounds are the frontier's, shared out between the groups.
    this.schedule = new HostSchedule(view, politeness, partitions, group, groups,
        Math.max(1, options.workingSetHosts() / groups), options.knownHostsCache() / groups,
        options.readAheadBytes() / groups);
    this.served = schedule.servedPartitions();
  }

  /**
   * Queues the group's part of an offer, {@code refs[i]} the host of the i-th entry; returns
   * the ticket to {@link #awaitWritten}.
   */
  long offer(HostRef[] refs, int[] priorities, byte[][] values, Collection<HostRef> batchHosts) {
    int n = refs.length;
    lock.lock();
    try {
      owner.checkUsable();
      checkOpen();
      byte[][] keys = new byte[n][];
      long seq = lastSeq;
      for (int i = 0; i < n; i++) {
        keys[i] = QueuedUrl.key(refs[i].partition, refs[i].utf8, priorities[i], ++seq);
      }
      // A host not known to be active needs its state read: new, idle, or active on disk.
      List<HostRef> unknown = new ArrayList<>();
      for (HostRef ref : batchHosts) {
        if (!schedule.knownActive(ref.hostKey)) {
          unknown.add(ref);
        }
      }
      List<byte[]> stateKeys = new ArrayList<>(unknown.size());
      for (HostRef ref : unknown) {
        stateKeys.add(HostState.key(ref.partition, ref.utf8));
      }
      List<byte[]> stored = store.multiGet(store.hosts, stateKeys);
      long now = owner.now();
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
      Set<PartitionCounters> touched = new LinkedHashSet<>();   // identity: counters do not override equals
      for (int i = 0; i < n; i++) {
        PartitionCounters c = counters(refs[i].partition);
        c.queued++;
        touched.add(c);
      }
      for (Activation a : activations) {
        counters(a.ref.partition).hosts++;
      }
      lastSeq = seq;
      List<byte[]> counterKeys = new ArrayList<>(touched.size());
      List<byte[]> counterValues = new ArrayList<>(touched.size());
      for (PartitionCounters c : touched) {
        c.lastSeq = lastSeq;
        counterKeys.add(c.key());
        counterValues.add(c.encode());
      }
      long ticket = stage(batch -> {
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
      // written (the store writes what is staged before every read).
      for (int i = 0; i < n; i++) {
        if (!refs[i].activatedNow) {
          schedule.offered(refs[i].hostKey, keys[i]);
        }
      }
      for (Activation a : activations) {
        a.ref.activatedNow = true;
        schedule.activated(a.ref.hostKey, a.ref.utf8, a.ref.partition, a.state, a.scheduleKey);
      }
      return ticket;
    } finally {
      lock.unlock();
    }
  }

  /**
   * A lease on a URL of this group's earliest host that may be fetched at {@code now}, or null;
   * then {@code earliest[0]} is the earliest time a host of the group may be ready (MAX_VALUE if
   * none is known). Null once closed.
   */
  Lease tryLease(long now, long[] earliest) {
    lock.lock();
    try {
      // The frontier marks itself closed before its groups: a next() under way returns empty.
      if (closed || owner.isClosed()) {
        earliest[0] = Long.MAX_VALUE;
        return null;
      }
      owner.checkNotFailed();
      while (true) {
        HostQueue h = schedule.firstReady(now);
        if (h == null) {
          earliest[0] = schedule.earliestMillis();
          return null;
        }
        Lease lease = leaseFrom(h, now);
        if (lease != null) {
          return lease;
        }
        // the host had nothing left to hand out: try the next
      }
    } finally {
      lock.unlock();
    }
  }

  private Lease leaseFrom(HostQueue h, long now) {
    int limit = politeness.connectionLimit(h.state());
    QueuedUrl url = h.next(store, limit);
    if (url == null) {
      if (h.inFlight() == 0) {
        deactivate(h);
      } else {
        schedule.updateReadiness(h);   // exhausted: out of the ready set until an offer or completion
      }
      return null;
    }
    // A copy of the key is the lease's token: a URL given back (DEFERRED, RETRY_AFTER) and leased
    // again has the same key, and a second completion of its first lease must not end the second.
    byte[] token = url.key().clone();
    h.lease(token);
    leased++;
    long scheduledBefore = h.nextAllowed();
    if (politeness.spacesStarts(h.state())) {
      moveSchedule(h, politeness.afterStart(h.state(), scheduledBefore, now));   // calls updateReadiness
      h.spacedBy(token);
    } else {
      schedule.updateReadiness(h);
    }
    return new Lease(owner, this, token, url.url(), h.hostKey, url.depth(), url.priority(), url.via(),
        url.redirectHops(), Instant.ofEpochMilli(now), scheduledBefore, limit,
        politeness.delayMillis(h.state().crawlDelayMillis()));
  }

  /** Whether the lease's host is as lenient as when it was leased (see {@link Frontier#mayRequest}). */
  boolean mayRequest(Lease lease) {
    lock.lock();
    try {
      owner.checkUsable();
      checkOpen();
      HostQueue h = schedule.get(lease.hostKey());
      checkArgument(h != null && h.holds(lease.key), "lease of %s was already completed", lease.url());
      return politeness.connectionLimit(h.state()) >= lease.leasedConnections
          && politeness.delayMillis(h.state().crawlDelayMillis()) <= lease.leasedDelayMillis;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Starts the lease's request now if its host's spacing allows, and returns 0; else returns the
   * milliseconds until it may (see {@link Frontier#tryStartRequest}).
   */
  long tryStartRequest(Lease lease) {
    lock.lock();
    try {
      owner.checkUsable();
      checkOpen();
      HostQueue h = schedule.get(lease.hostKey());
      checkArgument(h != null && h.holds(lease.key), "lease of %s was already completed", lease.url());
      if (!politeness.spacesStarts(h.state())) {
        return 0;
      }
      long now = owner.now();
      long allowed = politeness.afterStart(h.state(), Long.MIN_VALUE, h.lastStart());
      if (allowed > now) {
        return allowed - now;
      }
      h.lastStart(now);
      moveSchedule(h, politeness.afterStart(h.state(), h.nextAllowed(), now));
      h.spacedBy(null);   // its request went out: a SKIPPED completion of it gives no spacing back
      return 0;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Moves an active host in memory to a new next allowed time, on disk too, unless it is there
   * already. Not waited for: a start's spacing need not outlive the process, since after a
   * restart nothing is in flight.
   */
  private void moveSchedule(HostQueue h, long nextAllowed) {
    if (nextAllowed == h.nextAllowed()) {
      schedule.updateReadiness(h);
      return;
    }
    byte[] oldKey = h.scheduleKey();
    byte[] newKey = ScheduleKey.encode(h.partition, nextAllowed, h.hostKeyUtf8);
    stage(batch -> {
      batch.delete(store.schedule, oldKey);
      batch.put(store.schedule, newKey, SCHEDULE_VALUE);
    });
    schedule.reschedule(h, newKey);
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

  /** Ends a lease of this group (see {@link Frontier#complete}); returns the ticket to {@link #awaitWritten}. */
  long complete(Lease lease, FetchOutcome outcome) {
    lock.lock();
    try {
      owner.checkUsable();
      checkOpen();
      HostQueue h = schedule.get(lease.hostKey());
      checkArgument(h != null && h.holds(lease.key), "lease of %s was already completed", lease.url());
      long now = owner.now();
      HostState before = h.state();
      long scheduled = h.scheduleKey() == null ? now : ScheduleKey.nextAllowedMillis(h.scheduleKey());
      if (outcome.kind() == FetchOutcome.Kind.SKIPPED && h.lastSpacedBy(lease.key)) {
        // No request was made: the spacing its start added goes, if nothing moved the host since.
        scheduled = lease.scheduledBefore;
      }
      Politeness.Wait wait = politeness.after(outcome, before, scheduled, h.lastStart(), now);
      HostState after = before.withFailures(wait.consecutiveFailures());
      PartitionCounters c = counters(h.partition);
      boolean keep = outcome.kind() == FetchOutcome.Kind.RETRY_AFTER || outcome.kind() == FetchOutcome.Kind.DEFERRED;
      if (!keep) {
        c.queued--;
      }
      switch (outcome.kind()) {
        case FETCHED, SKIPPED -> c.fetched++;   // done without error; the crawler counts its skips itself
        case RETRY_AFTER -> c.retried++;
        case FAILED -> c.failed++;
        case DEFERRED -> { }   // not an end of the URL, not a failure: nothing to count
      }
      // Known empty and this was the last fetch in flight: the host goes idle now.
      boolean idle = !keep && h.exhausted() && h.inFlight() == 1;
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
      byte[] hostStateKey = newState == null ? null : HostState.key(h.partition, h.hostKeyUtf8);
      byte[] counterKey = c.key();
      byte[] counterValue = c.encode();
      long ticket = stage(batch -> {
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
      }
      return ticket;
    } finally {
      lock.unlock();
    }
  }

  /** The host's delay between fetches (see {@link Frontier#hostDelay}), from its state in memory or on disk. */
  long delayMillis(HostRef ref) {
    lock.lock();
    try {
      owner.checkUsable();
      checkOpen();
      return politeness.delayMillis(stateOf(schedule.get(ref.hostKey), HostState.key(ref.partition, ref.utf8))
          .crawlDelayMillis());
    } finally {
      lock.unlock();
    }
  }

  /** A host's state: its queue's if it is in memory ({@code h}), else as stored under {@code key}. Under the lock. */
  private HostState stateOf(HostQueue h, byte[] key) {
    if (h != null) {
      return h.state();
    }
    byte[] stored = store.get(store.hosts, key);
    return stored == null ? HostState.NEW : HostState.decode(stored);
  }

  /** Changes a host's stored settings, in memory or on disk; returns the ticket to {@link #awaitWritten}. */
  long updateHostState(HostRef ref, UnaryOperator<HostState> change) {
    byte[] key = HostState.key(ref.partition, ref.utf8);
    lock.lock();
    try {
      owner.checkUsable();
      checkOpen();
      HostQueue h = schedule.get(ref.hostKey);
      HostState current = stateOf(h, key);
      HostState next = change.apply(current);
      if (next.equals(current)) {
        // Nothing to write (the crawler applies each robots.txt it fetches: most change nothing).
        // The caller still waits for what is staged, which may hold this very change, staged by
        // another thread and not yet written: on return it is durable all the same.
        return store.lastStaged();
      }
      byte[] value = h != null ? next.withActive(true, h.nextAllowed()).encode() : next.encode();
      long ticket = stage(batch -> batch.put(store.hosts, key, value));
      if (h != null) {
        h.setState(next);
        schedule.updateReadiness(h);
      } else {
        schedule.storedStateChanged(ref.hostKey, next);
      }
      return ticket;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds this group's counts to {@code sums}: queued, hosts, ready at {@code now}, leased,
   * fetched, retried, failed.
   */
  void addCounts(long[] sums, long now) {
    lock.lock();
    try {
      owner.checkUsable();
      for (int p : served) {
        PartitionCounters c = counters[p];
        if (c != null) {
          sums[0] += c.queued;
          sums[1] += c.hosts;
          sums[4] += c.fetched;
          sums[5] += c.retried;
          sums[6] += c.failed;
        }
      }
      sums[2] += schedule.readyAt(now);
      sums[3] += leased;
    } finally {
      lock.unlock();
    }
  }

  boolean invariantsHold() {
    lock.lock();
    try {
      return schedule.invariantsHold();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Writes what the group has staged: so a read of the whole store sees it, or for the frontier's
   * deferred writer. A failed write is the frontier's failure, as in {@link #awaitWritten}.
   */
  void writeStaged() {
    awaitWritten(store.lastStaged());
  }

  /** Database writes made through this group's commits; for tests and the benchmark. */
  long writes() {
    return store.writes();
  }

  long iteratorsOpened() {
    return store.iteratorsOpened();
  }

  long seeks() {
    return store.seeks();
  }

  /** Refuses every later operation, waiting for the one in progress; then writes what is staged. */
  void close() {
    lock.lock();
    try {
      closed = true;
    } finally {
      lock.unlock();
    }
    store.close();
  }

  /** Operations staged and not yet taken by a write: deferred completions, mostly. */
  int unwrittenStages() {
    return store.unwrittenStages();
  }

  /** Waits, without the lock, until the changes staged with {@code ticket} are durable. */
  void awaitWritten(long ticket) {
    assert !lock.isHeldByCurrentThread();
    try {
      store.awaitWritten(ticket);
    } catch (RuntimeException e) {
      throw owner.failed(e);
    }
  }

  /** Stages changes for the group's next write; under the lock, so batches are staged in the order decided. */
  private long stage(GroupCommit.Changes changes) {
    assert lock.isHeldByCurrentThread();
    try {
      return store.stage(changes);
    } catch (RuntimeException e) {
      throw owner.failed(e);
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("frontier is closed");
    }
  }

  private PartitionCounters counters(int partition) {
    PartitionCounters c = counters[partition];
    if (c == null) {
      c = new PartitionCounters(partition);
      counters[partition] = c;
    }
    return c;
  }

  /** A host of one offer batch. */
  static final class HostRef {
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
