package dev.crawler.frontier.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The heap's working set of hosts, cut from the front of the on-disk schedule, and the
 * order in which they are served: the host allowed earliest first.
 *
 * <p>The schedule column family holds one key per active host, ordered by partition, then
 * next allowed time, then host. For each partition this class keeps a cursor, a schedule
 * key: every active host whose key sorts before the cursor is in memory; hosts at or after
 * it wait on disk, and are read in, a chunk at a time, when the ready set runs low. When a
 * host's new time falls at or after the cursor, it leaves memory (its key on disk is
 * already current); when too many hosts are ready, the latest ones leave and the cursor
 * moves back to them. So memory holds a bounded prefix of the schedule, and within a
 * partition the earliest host in memory is the earliest host of all. Across partitions each
 * is read in turn, so the order is earliest-first per partition, and approximately so overall.
 *
 * <p>Invariants, checked by {@link #invariantsHold()}:
 * <ol>
 *   <li>every host in memory is active; its {@code scheduleKey} is its key on disk;
 *   <li>a host is in {@code ready} iff it has fewer fetches in flight than its limit, is not
 *       known to be exhausted, and its key sorts before its partition's cursor;
 *   <li>a host in memory but not in {@code ready} has a fetch in flight, so memory holds at
 *       most {@code capacity} ready hosts plus the hosts of the leases outstanding;
 *   <li>{@code ready.size() <= capacity} between operations.
 * </ol>
 * Not thread-safe: the frontier holds its lock around every call.
 */
public final class HostSchedule {
  /** Hosts read from disk at most per refill, so one refill holds the lock briefly. */
  static final int REFILL_CHUNK = 1024;

  private static final Comparator<HostQueue> EARLIEST_FIRST = (a, b) -> {
    int c = Long.compare(a.nextAllowed, b.nextAllowed);
    if (c == 0) {
      c = Bytes.compare(a.hostKeyUtf8, b.hostKeyUtf8);
    }
    return c != 0 ? c : Integer.compare(a.partition, b.partition);
  };

  private final FrontierStore store;
  private final Politeness politeness;
  private final int capacity;
  private final Map<String, HostQueue> hosts = new HashMap<>();
  private final TreeSet<HostQueue> ready = new TreeSet<>(EARLIEST_FIRST);
  private final byte[][] cursor;
  /** Partitions whose every active host is in memory: their cursor is past the end. */
  private final boolean[] drained;
  private int undrained;
  private int nextPartitionToRead;
  private final Map<String, Boolean> knownActive;

  public HostSchedule(FrontierStore store, Politeness politeness, int partitions, int capacity, int knownActive) {
    this.store = store;
    this.politeness = politeness;
    this.capacity = capacity;
    this.cursor = new byte[partitions][];
    this.drained = new boolean[partitions];
    for (int p = 0; p < partitions; p++) {
      cursor[p] = ScheduleKey.partitionStart(p);
    }
    this.undrained = partitions;
    this.knownActive = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
        return size() > knownActive;
      }
    };
  }

  /** The host if it is in memory, else null. */
  public HostQueue get(String hostKey) {
    return hosts.get(hostKey);
  }

  /** True if the host is in memory or was recently seen active, so it needs no disk read to know it is scheduled. */
  public boolean knownActive(String hostKey) {
    return hosts.containsKey(hostKey) || knownActive.get(hostKey) != null;
  }

  public void rememberActive(String hostKey) {
    knownActive.put(hostKey, Boolean.TRUE);
  }

  private boolean beforeCursor(int partition, byte[] key) {
    return drained[partition] || Bytes.compare(key, cursor[partition]) < 0;
  }

  /**
   * Takes in a host just activated with its schedule key; it stays on disk only if the
   * key is past its partition's cursor.
   */
  public void activated(String hostKey, byte[] hostKeyUtf8, int partition, HostState state, byte[] scheduleKey) {
    assert !hosts.containsKey(hostKey) : hostKey + " activated twice";
    knownActive.put(hostKey, Boolean.TRUE);
    if (beforeCursor(partition, scheduleKey)) {
      HostQueue h = new HostQueue(hostKey, hostKeyUtf8, partition, state, scheduleKey);
      hosts.put(hostKey, h);
      updateReadiness(h);
      evictOverflow();
    }
  }

  /** Puts the host in or out of the ready set after a change (invariant 2), keeping the set within capacity. */
  public void updateReadiness(HostQueue h) {
    placeInReadySet(h);
    evictOverflow();
  }

  private void placeInReadySet(HostQueue h) {
    boolean shouldBeReady = h.inFlight < politeness.connectionLimit(h.state.connectionLimit()) && !h.exhausted
        && beforeCursor(h.partition, h.scheduleKey);
    if (shouldBeReady != h.inReady) {
      if (shouldBeReady) {
        ready.add(h);
      } else {
        ready.remove(h);
      }
      h.inReady = shouldBeReady;
    }
    if (!h.inReady && h.inFlight == 0) {
      hosts.remove(h.hostKey);   // waits on disk (invariant 3)
      assert !h.exhausted : h + " is exhausted with nothing in flight: it should have been deactivated";
    }
  }

  /** Moves the host to a new time; its new key is already written. */
  public void reschedule(HostQueue h, byte[] newScheduleKey) {
    if (h.inReady) {
      ready.remove(h);   // before its sort fields change
      h.inReady = false;
    }
    h.scheduleKey = newScheduleKey;
    h.nextAllowed = ScheduleKey.nextAllowedMillis(newScheduleKey);
    updateReadiness(h);
    if (!hosts.containsKey(h.hostKey)) {
      knownActive.put(h.hostKey, Boolean.TRUE);
    }
    evictOverflow();
  }

  /** Forgets a host that was just deactivated (no queued URLs, nothing in flight). */
  public void deactivated(HostQueue h) {
    assert h.inFlight == 0 : h + " deactivated with fetches in flight";
    if (h.inReady) {
      ready.remove(h);
      h.inReady = false;
    }
    hosts.remove(h.hostKey);
    knownActive.remove(h.hostKey);
  }

  /** The earliest ready host if it may be fetched at {@code now}, else null; reads hosts in from disk as needed. */
  public HostQueue firstReady(long now) {
    if (ready.size() < Math.max(1, capacity / 2) && undrained > 0) {
      refill();
    }
    if (ready.isEmpty()) {
      return null;
    }
    HostQueue first = ready.first();
    return first.nextAllowed <= now ? first : null;
  }

  /** The time the earliest host in memory may be fetched; Long.MAX_VALUE if none. */
  public long earliestMillis() {
    return ready.isEmpty() ? Long.MAX_VALUE : ready.first().nextAllowed;
  }

  public int readyAt(long now) {
    int n = 0;
    for (HostQueue h : ready) {
      if (h.nextAllowed > now) {
        break;
      }
      n++;
    }
    return n;
  }

  public int hostsInMemory() {
    return hosts.size();
  }

  private void evictOverflow() {
    while (ready.size() > capacity) {
      HostQueue last = ready.pollLast();
      last.inReady = false;
      // Everything of this partition still ready sorts before it, so moving the cursor back
      // to it keeps invariant 2 for them.
      cursor[last.partition] = last.scheduleKey;
      if (drained[last.partition]) {
        drained[last.partition] = false;
        undrained++;
      }
      if (last.inFlight == 0) {
        hosts.remove(last.hostKey);
        knownActive.put(last.hostKey, Boolean.TRUE);
      }
    }
  }

  /** Reads up to a chunk of hosts from disk, from each undrained partition in turn. */
  private void refill() {
    int want = Math.min(REFILL_CHUNK, capacity - ready.size());
    int partitions = cursor.length;
    for (int i = 0; i < partitions && want > 0 && undrained > 0; i++) {
      int p = (nextPartitionToRead + i) % partitions;
      if (!drained[p]) {
        want -= refill(p, want);
      }
    }
    nextPartitionToRead = (nextPartitionToRead + 1) % partitions;
  }

  private int refill(int p, int want) {
    List<byte[]> keys = new ArrayList<>(Math.min(want, 256));
    store.scan(store.schedule, cursor[p], ScheduleKey.partitionEnd(p), (k, v) -> {
      ScheduleKey.checkVersion(k);
      keys.add(k);
      return keys.size() < want;
    });
    if (keys.size() < want) {
      drained[p] = true;
      undrained--;
    } else {
      cursor[p] = Bytes.successor(keys.get(keys.size() - 1));
    }
    List<byte[]> toRead = new ArrayList<>(keys.size());
    List<byte[]> stateKeys = new ArrayList<>(keys.size());
    for (byte[] k : keys) {
      HostQueue inMemory = hosts.get(ScheduleKey.hostKey(k));
      if (inMemory != null) {
        // Left memory's range while leased and is now back in it (invariant 2).
        assert java.util.Arrays.equals(inMemory.scheduleKey, k) : inMemory + " has two schedule keys";
        updateReadiness(inMemory);
      } else {
        toRead.add(k);
        stateKeys.add(HostState.key(p, ScheduleKey.hostKeyUtf8(k)));
      }
    }
    List<byte[]> states = store.multiGet(store.hosts, stateKeys);
    List<HostQueue> fresh = new ArrayList<>(toRead.size());
    for (int i = 0; i < toRead.size(); i++) {
      byte[] k = toRead.get(i);
      byte[] stored = states.get(i);
      // A schedule key and its host state are written in one batch; a missing state would
      // be a bug, and the host is still served with default settings rather than lost.
      HostState state = stored == null ? HostState.NEW.withActive(true, 0) : HostState.decode(stored);
      assert stored != null && state.active() : "scheduled host " + ScheduleKey.hostKey(k) + " has state " + state;
      fresh.add(new HostQueue(ScheduleKey.hostKey(k), ScheduleKey.hostKeyUtf8(k), p, state, k));
    }
    readQueueHeads(fresh);
    for (HostQueue h : fresh) {
      hosts.put(h.hostKey, h);
      updateReadiness(h);
    }
    return keys.size();
  }

  /**
   * Reads ahead the queues of hosts just read in, with one iterator in key order, instead of
   * one iterator per host at its first lease: opening an iterator costs about what a seek
   * does. Every host read in has nothing in flight, so nothing read is leased.
   */
  private void readQueueHeads(List<HostQueue> fresh) {
    if (fresh.isEmpty()) {
      return;
    }
    fresh.sort((a, b) -> Bytes.compare(a.hostKeyUtf8, b.hostKeyUtf8));   // one partition: key order
    List<byte[]> froms = new ArrayList<>(fresh.size());
    List<byte[]> ends = new ArrayList<>(fresh.size());
    int[] want = new int[fresh.size()];
    for (int i = 0; i < fresh.size(); i++) {
      HostQueue h = fresh.get(i);
      froms.add(h.readStart());
      ends.add(h.readEnd());
      want[i] = HostQueue.readAheadFor(politeness.connectionLimit(h.state.connectionLimit()));
    }
    store.scanEach(store.queue, froms, ends, (i, k, v) -> fresh.get(i).take(k, v, want[i]));
    for (int i = 0; i < fresh.size(); i++) {
      fresh.get(i).readDone(want[i]);
    }
  }

  /** Checks invariants 1 to 4 over the whole working set; O(hosts), for tests and assertions. */
  public boolean invariantsHold() {
    for (HostQueue h : hosts.values()) {
      boolean shouldBeReady = h.inFlight < politeness.connectionLimit(h.state.connectionLimit()) && !h.exhausted
          && beforeCursor(h.partition, h.scheduleKey);
      if (shouldBeReady != h.inReady || h.inReady != ready.contains(h)) {
        throw new AssertionError(h + " ready " + h.inReady + " but should be " + shouldBeReady);
      }
      if (!h.inReady && h.inFlight == 0) {
        throw new AssertionError(h + " is in memory, not ready and has nothing in flight");
      }
      if (h.leased.size() != h.inFlight) {
        throw new AssertionError(h + " has " + h.leased.size() + " leased keys");
      }
      if (h.nextAllowed != ScheduleKey.nextAllowedMillis(h.scheduleKey)) {
        throw new AssertionError(h + " time differs from its schedule key");
      }
      if (store.get(store.schedule, h.scheduleKey) == null) {
        throw new AssertionError(h + " schedule key is not on disk");
      }
    }
    if (ready.size() > capacity) {
      throw new AssertionError(ready.size() + " ready hosts, capacity " + capacity);
    }
    for (HostQueue h : ready) {
      if (hosts.get(h.hostKey) != h) {
        throw new AssertionError(h + " is ready but not in memory");
      }
    }
    return true;
  }
}
