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
 * Not thread-safe: its partition group holds its lock around every call.
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
  /** Indexed by partition, for the partitions served; null for the others. */
  private final byte[][] cursor;
  /** Partitions whose every active host is in memory: their cursor is past the end. */
  private final boolean[] drained;
  /** The partitions this schedule serves, in the order refills read them. */
  private final int[] served;
  /** Whether a cursor or drained flag changed since {@link #earliestOnDisk} was last worked out. */
  private boolean cursorsMoved = true;
  private long earliestOnDisk;
  private int undrained;
  private int nextPartitionToRead;
  /**
   * Active hosts seen recently, with their state as stored when they left memory, so an offer
   * needs no read to know its host is scheduled and a refill none to learn its settings; and
   * with what they had read ahead, within {@link #readAheadBytes}, so a refill needs no read of
   * their queues either. A host in memory may be here too, as the same object. Bounded (least
   * recently used leave); consulted only for hosts not in memory, whose stored state changes
   * only through {@link #storedStateChanged} and whose queues only through {@link #offered}.
   */
  private final Map<String, HostQueue> knownActive;
  /** The budget for read-ahead kept out of memory, and what is kept ({@link HostQueue#keptBytes} summed). */
  private final long readAheadBytes;
  private long keptBytes;
  /** Hosts the known-active cache let go, and that count at the last refill's read. */
  private long evictions;
  private long evictionsAtLastRead;

  /**
   * A schedule of the hosts of the partitions {@code p} with {@code p % groups == group}; the
   * frontier keeps one per lock (see {@code PartitionGroup}). Its arrays are indexed by partition,
   * {@code partitions} long whatever it serves.
   */
  public HostSchedule(FrontierStore store, Politeness politeness, int partitions, int group, int groups,
      int capacity, int knownActive, long readAheadBytes) {
    this.store = store;
    this.politeness = politeness;
    this.capacity = capacity;
    this.readAheadBytes = readAheadBytes;
    this.cursor = new byte[partitions][];
    this.drained = new boolean[partitions];
    this.served = new int[(partitions - group + groups - 1) / groups];
    for (int i = 0; i < served.length; i++) {
      int p = group + i * groups;
      served[i] = p;
      cursor[p] = ScheduleKey.partitionStart(p);
    }
    this.undrained = served.length;
    this.knownActive = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, HostQueue> eldest) {
        if (size() <= knownActive) {
          return false;
        }
        unkeep(eldest.getValue());
        evictions++;
        return true;
      }
    };
  }

  /** The partitions this schedule serves. */
  public int[] servedPartitions() {
    return served.clone();
  }

  /** The host if it is in memory, else null. */
  public HostQueue get(String hostKey) {
    return hosts.get(hostKey);
  }

  /** True if the host is in memory or was recently seen active, so it needs no disk read to know it is scheduled. */
  public boolean knownActive(String hostKey) {
    return hosts.containsKey(hostKey) || knownActive.get(hostKey) != null;
  }

  /** Remembers a host found active on disk, with its stored state. */
  public void rememberActive(String hostKey, byte[] hostKeyUtf8, int partition, HostState stored) {
    assert !hosts.containsKey(hostKey) : hostKey + " is in memory";
    knownActive.put(hostKey, new HostQueue(hostKey, hostKeyUtf8, partition, stored));
  }

  /** Tells the cache that the stored state of a host not in memory is now {@code stored}. */
  public void storedStateChanged(String hostKey, HostState stored) {
    assert !hosts.containsKey(hostKey) : hostKey + " is in memory: its HostQueue holds its state";
    HostQueue kept = knownActive.get(hostKey);
    if (kept != null) {
      kept.state = stored;
    }
  }

  /**
   * Tells the host's queue, in memory or kept, that {@code key} was just queued for it (an active
   * host, not activated by this offer), so the next read reaches it.
   */
  public void offered(String hostKey, byte[] key) {
    HostQueue h = hosts.get(hostKey);
    if (h != null) {
      h.unread(key);
      updateReadiness(h);
      return;
    }
    HostQueue kept = knownActive.get(hostKey);
    if (kept != null) {
      unkeep(kept);
      kept.unread(key);
      keep(kept);
    }
  }

  /** A host leaves memory for the disk; its state and, budget allowing, its read-ahead are kept for when it comes back. */
  private void leaveMemory(HostQueue h) {
    hosts.remove(h.hostKey);
    keep(h);
    knownActive.put(h.hostKey, h);
  }

  /**
   * Counts a host out of memory in the read-ahead budget, or drops its buffer if it does not fit
   * or if the cache is evicting (the buffer would most likely be gone before its next stay).
   */
  private void keep(HostQueue h) {
    assert h.keptBytes == 0 : h + " kept twice";
    long bytes = h.bufferBytes();
    if (keptBytes + bytes > readAheadBytes || evictions != evictionsAtLastRead) {
      h.dropBuffer();
      return;
    }
    h.keptBytes = bytes;
    keptBytes += bytes;
  }

  private void unkeep(HostQueue h) {
    keptBytes -= h.keptBytes;
    h.keptBytes = 0;
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
    HostQueue h = new HostQueue(hostKey, hostKeyUtf8, partition, state, scheduleKey);
    HostQueue before = knownActive.put(hostKey, h);
    assert before == null : before + " was known active";
    if (beforeCursor(partition, scheduleKey)) {
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
    boolean shouldBeReady = h.inFlight < politeness.connectionLimit(h.state) && !h.exhausted
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
      leaveMemory(h);   // waits on disk (invariant 3)
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
    h.spacedBy(null);
    updateReadiness(h);
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
    HostQueue kept = knownActive.remove(h.hostKey);
    if (kept != null) {
      unkeep(kept);
    }
  }

  /** The earliest ready host if it may be fetched at {@code now}, else null; reads hosts in from disk as needed. */
  public HostQueue firstReady(long now) {
    // Until half full or nothing is left on disk. One refill may not do: the keys it reads count
    // against its chunk even when their hosts are in memory already (leased when they were
    // rescheduled past the cursor), and such hosts do not become ready; with a small working set
    // they could fill a whole chunk, and a host due on disk waited for the next call's refill, or
    // for a next() to time out. Each refill moves the cursor on, so this ends.
    while (undrained > 0 && ready.size() < Math.max(1, capacity / 2)) {
      if (refill() == 0) {
        break;
      }
    }
    if (undrained > 0 && served.length > 1 && !ready.isEmpty()) {
      if (earliestOnDisk() < ready.first().nextAllowed) {
        // A partition's cursor keeps earliest-first within that partition only. With several
        // partitions in a group, one partition's hosts read in and not yet due could fill half
        // the set and stop every refill, while another's, due long ago, waited on disk for good.
        // Read those in; the latest in memory make room (evictOverflow).
        refillEarlierThan(ready.first().nextAllowed);
      }
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
      cursorsMoved = true;
      if (drained[last.partition]) {
        drained[last.partition] = false;
        undrained++;
      }
      if (last.inFlight == 0) {
        leaveMemory(last);
      }
    }
  }

  /** The earliest time a host waiting on disk may have: the least of the undrained partitions' cursors. */
  private long earliestOnDisk() {
    if (cursorsMoved) {
      long earliest = Long.MAX_VALUE;
      for (int p : served) {
        if (!drained[p]) {
          earliest = Math.min(earliest, cursorMillis(cursor[p]));
        }
      }
      earliestOnDisk = earliest;
      cursorsMoved = false;
    }
    return earliestOnDisk;
  }

  /** The time of a cursor: a schedule key's, or the least for a partition not read from yet. */
  private static long cursorMillis(byte[] cursor) {
    return cursor.length >= 11 ? ScheduleKey.nextAllowedMillis(cursor) : Long.MIN_VALUE;
  }

  /** Reads in the next hosts of each undrained partition whose cursor is earlier than {@code millis}. */
  private void refillEarlierThan(long millis) {
    int want = Math.max(1, capacity / 2);
    for (int p : served) {
      if (!drained[p] && cursorMillis(cursor[p]) < millis) {
        refill(p, want);
      }
    }
  }

  /** Reads up to a chunk of hosts from disk, from each undrained partition in turn; returns the schedule keys read. */
  private int refill() {
    int chunk = Math.max(1, Math.min(REFILL_CHUNK, capacity - ready.size()));
    int want = chunk;
    for (int i = 0; i < served.length && want > 0 && undrained > 0; i++) {
      int p = served[(nextPartitionToRead + i) % served.length];
      if (!drained[p]) {
        want -= refill(p, want);
      }
    }
    nextPartitionToRead = (nextPartitionToRead + 1) % served.length;
    return chunk - want;
  }

  private int refill(int p, int want) {
    List<byte[]> keys = new ArrayList<>(Math.min(want, 256));
    store.scan(store.schedule, cursor[p], ScheduleKey.partitionEnd(p), (k, v) -> {
      ScheduleKey.checkVersion(k);
      keys.add(k);
      return keys.size() < want;
    });
    cursorsMoved = true;
    if (keys.size() < want) {
      drained[p] = true;
      undrained--;
    } else {
      cursor[p] = Bytes.successor(keys.get(keys.size() - 1));
    }
    List<HostQueue> fresh = new ArrayList<>(keys.size());
    List<HostQueue> unknown = new ArrayList<>();
    List<byte[]> stateKeys = new ArrayList<>();
    for (byte[] k : keys) {
      String hostKey = ScheduleKey.hostKey(k);
      HostQueue inMemory = hosts.get(hostKey);
      if (inMemory != null) {
        // Left memory's range while leased and is now back in it (invariant 2).
        assert java.util.Arrays.equals(inMemory.scheduleKey, k) : inMemory + " has two schedule keys";
        updateReadiness(inMemory);
        continue;
      }
      HostQueue h = knownActive.get(hostKey);
      if (h != null) {
        unkeep(h);   // back in memory, with its state and read-ahead
        h.enter(k);
      } else {
        h = new HostQueue(hostKey, ScheduleKey.hostKeyUtf8(k), p, null, k);
        unknown.add(h);
        stateKeys.add(HostState.key(p, h.hostKeyUtf8));
      }
      fresh.add(h);
    }
    List<byte[]> states = store.multiGet(store.hosts, stateKeys);
    for (int i = 0; i < unknown.size(); i++) {
      HostQueue h = unknown.get(i);
      byte[] stored = states.get(i);
      // A schedule key and its host state are written in one batch; a missing state would
      // be a bug, and the host is still served with default settings rather than lost.
      h.state = stored == null ? HostState.NEW.withActive(true, 0) : HostState.decode(stored);
      assert stored != null && h.state.active() : "scheduled host " + h.hostKey + " has state " + h.state;
      knownActive.put(h.hostKey, h);
    }
    readQueueHeads(fresh);
    for (HostQueue h : fresh) {
      hosts.put(h.hostKey, h);
      updateReadiness(h);
    }
    return keys.size();
  }

  /**
   * Reads ahead the queues of hosts just read in that have fewer URLs read ahead than their
   * connection limit (a host kept with read-ahead needs no read), with one iterator in key
   * order, instead of one iterator per host at its first lease: opening an iterator costs about
   * what a seek does. Every host read in has nothing in flight, so nothing read is leased.
   * While the budget for kept read-ahead has room and the known-active cache let no host go since
   * the last such read, each host reads {@link HostQueue#KEPT_READ_AHEAD}.
   */
  private void readQueueHeads(List<HostQueue> fresh) {
    List<HostQueue> reads = new ArrayList<>(fresh.size());
    for (HostQueue h : fresh) {
      if (!h.readAll && h.buffered() < politeness.connectionLimit(h.state)) {
        reads.add(h);
      }
    }
    if (reads.isEmpty()) {
      return;
    }
    reads.sort((a, b) -> Bytes.compare(a.hostKeyUtf8, b.hostKeyUtf8));   // one partition: key order
    // Extra read-ahead pays only if the host is still known when it comes back: not while the
    // cache evicts, as it does on every stay when more hosts than it holds are served round robin.
    boolean mayKeep = keptBytes < readAheadBytes && evictions == evictionsAtLastRead;
    evictionsAtLastRead = evictions;
    List<byte[]> froms = new ArrayList<>(reads.size());
    List<byte[]> ends = new ArrayList<>(reads.size());
    int[] want = new int[reads.size()];
    for (int i = 0; i < reads.size(); i++) {
      HostQueue h = reads.get(i);
      froms.add(h.readStart());
      ends.add(h.readEnd());
      want[i] = HostQueue.readAheadFor(politeness.connectionLimit(h.state), mayKeep);
    }
    store.scanEach(store.queue, froms, ends, (i, k, v) -> reads.get(i).take(k, v, want[i]));
    for (int i = 0; i < reads.size(); i++) {
      reads.get(i).readDone(want[i]);
    }
  }

  /**
   * Checks HostQueue's read invariant against the disk: the unleased URLs queued for the host are
   * exactly its buffer, in order, then those at or after {@code readFrom} (none if {@code readAll}).
   */
  private void checkReadAhead(HostQueue h) {
    List<byte[]> before = new ArrayList<>();
    List<byte[]> after = new ArrayList<>();
    store.scan(store.queue, QueuedUrl.hostStart(h.partition, h.hostKeyUtf8), h.readEnd(), (k, v) -> {
      if (!h.isLeased(k)) {
        (h.readFrom != null && Bytes.compare(k, h.readFrom) < 0 ? before : after).add(k);
      }
      return true;
    });
    List<byte[]> buffered = new ArrayList<>();
    h.buffer.forEach(u -> buffered.add(u.key()));
    boolean same = before.size() == buffered.size();
    for (int i = 0; same && i < before.size(); i++) {
      same = java.util.Arrays.equals(before.get(i), buffered.get(i));
    }
    if (!same || (h.readAll && !after.isEmpty())) {
      throw new AssertionError(h + " read ahead " + buffered.size() + " URLs, read all " + h.readAll + ", but "
          + before.size() + " unleased are queued before where it reads from and " + after.size() + " after");
    }
  }

  /** Equal but for the fields the schedule key holds while a host is active. */
  private static boolean sameSettings(HostState a, HostState b) {
    return a.crawlDelayMillis() == b.crawlDelayMillis() && a.connectionLimit() == b.connectionLimit()
        && a.consecutiveFailures() == b.consecutiveFailures();
  }

  /** Checks invariants 1 to 4 over the whole working set; O(hosts), for tests and assertions. */
  public boolean invariantsHold() {
    for (HostQueue h : hosts.values()) {
      boolean shouldBeReady = h.inFlight < politeness.connectionLimit(h.state) && !h.exhausted
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
    for (HostQueue h : hosts.values()) {
      checkReadAhead(h);
    }
    long kept = 0;
    for (Map.Entry<String, HostQueue> e : knownActive.entrySet()) {
      HostQueue h = e.getValue();
      if (hosts.containsKey(e.getKey())) {
        if (hosts.get(e.getKey()) != h || h.keptBytes != 0) {
          throw new AssertionError(h + " is in memory and kept as another object or with kept bytes");
        }
        continue;   // not consulted while in memory
      }
      byte[] utf8 = HostKeys.utf8(e.getKey());
      byte[] stored = store.get(store.hosts, HostState.key(HostKeys.partition(utf8, cursor.length), utf8));
      HostState onDisk = stored == null ? null : HostState.decode(stored);
      if (onDisk == null || !onDisk.active() || !sameSettings(onDisk, h.state)) {
        throw new AssertionError(e.getKey() + " remembered as " + h.state + " but stored as " + onDisk);
      }
      if (h.inFlight != 0 || h.inReady || h.exhausted || h.keptBytes != h.bufferBytes()) {
        throw new AssertionError(h + " kept out of memory with " + h.inFlight + " in flight, ready " + h.inReady
            + ", kept bytes " + h.keptBytes + " of " + h.bufferBytes());
      }
      checkReadAhead(h);
      kept += h.keptBytes;
    }
    if (kept != keptBytes || keptBytes > readAheadBytes) {
      throw new AssertionError("kept read-ahead " + keptBytes + " bytes, counted " + kept + ", budget " + readAheadBytes);
    }
    for (HostQueue h : ready) {
      if (hosts.get(h.hostKey) != h) {
        throw new AssertionError(h + " is ready but not in memory");
      }
    }
    return true;
  }
}
