package dev.crawler.frontier.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An active host while it is in the heap's working set: its politeness state, its fetches in
 * flight, and a few of its queued URLs read ahead from disk. Its queue itself stays on disk.
 *
 * <p>Invariants (its partition group holds its lock around every use):
 * <ul>
 *   <li>The host's queued URLs that are not leased are exactly those in {@code buffer} plus
 *       the unleased ones on disk at or after {@code readFrom} ({@code null}: the host's first
 *       key); every buffered key sorts before {@code readFrom}.
 *   <li>{@code leased.size() == inFlight}, and no leased key is in {@code buffer}.
 *   <li>{@code readAll}: the last read reached the end of the host's range, so nothing
 *       unleased is on disk at or after {@code readFrom} (until {@link #unread} says so).
 *   <li>{@code exhausted}: the host has nothing unleased; its buffer is empty and either a
 *       read found nothing or the last read reached the end and all it found is handed out.
 * </ul>
 * A new URL (or one given back by RETRY_AFTER) that sorts before {@code readFrom}, by a
 * higher priority, moves {@code readFrom} back and empties the buffer; leased keys met again
 * on the next read are skipped.
 *
 * <p>When the host leaves the working set with nothing in flight, {@link HostSchedule} may keep
 * this object, buffer and {@code readFrom} included, among its known active hosts: the invariants
 * above hold out of memory too (offers call {@link #unread} on a kept queue as on one in memory),
 * so its next stay serves the buffer without a read, and a read starts at {@code readFrom}, past
 * the tombstones of the URLs it completed, instead of at the host's first key. Nothing of it is
 * stored: after a restart every host starts again from its first key.
 */
public final class HostQueue {
  /** Read-ahead per host at most; with one connection, two entries tell at completion whether more wait. */
  static final int MAX_READ_AHEAD = 8;
  /**
   * Read-ahead per host while the schedule has room to keep read-ahead of hosts out of memory:
   * with zero or uniform delays hosts are served round robin, one URL per stay, so a host read
   * in with this many is read from disk once per this many stays.
   */
  static final int KEPT_READ_AHEAD = 4;

  public final String hostKey;
  public final byte[] hostKeyUtf8;
  public final int partition;
  /** The settings and failures as stored; {@code active} and {@code nextAllowedMillis} are not kept current here. */
  HostState state;
  /** When the host may next be fetched; equals the time in {@link #scheduleKey}. */
  long nextAllowed;
  /** The host's key in the schedule column family, as stored now. */
  byte[] scheduleKey;
  int inFlight;
  /** When the latest fetch started, for a host whose starts are spaced; in memory only, as leases are. */
  private long lastStart = Long.MIN_VALUE / 2;
  /** The lease whose start last moved {@link #nextAllowed} on; null once anything else moved it. */
  private byte[] spacedBy;
  final List<byte[]> leased = new ArrayList<>(1);
  final ArrayDeque<QueuedUrl> buffer = new ArrayDeque<>(2);
  byte[] readFrom;
  boolean readAll;
  boolean exhausted;
  boolean inReady;
  /** While kept out of memory: the estimated bytes of its buffer, counted in the schedule's budget; else 0. */
  long keptBytes;

  HostQueue(String hostKey, byte[] hostKeyUtf8, int partition, HostState state, byte[] scheduleKey) {
    this.hostKey = hostKey;
    this.hostKeyUtf8 = hostKeyUtf8;
    this.partition = partition;
    this.state = state;
    this.scheduleKey = scheduleKey;
    this.nextAllowed = ScheduleKey.nextAllowedMillis(scheduleKey);
  }

  /** A host known active from its stored state, out of memory: nothing read yet, its schedule key unknown. */
  HostQueue(String hostKey, byte[] hostKeyUtf8, int partition, HostState state) {
    this.hostKey = hostKey;
    this.hostKeyUtf8 = hostKeyUtf8;
    this.partition = partition;
    this.state = state;
  }

  /** Comes (back) into memory at {@code scheduleKey}, its key on disk. */
  void enter(byte[] scheduleKey) {
    assert inFlight == 0 && !inReady : this + " entered memory while in it";
    this.scheduleKey = scheduleKey;
    this.nextAllowed = ScheduleKey.nextAllowedMillis(scheduleKey);
  }

  /** URLs read ahead and not handed out. */
  int buffered() {
    return buffer.size();
  }

  /** Estimated heap bytes of the buffer. */
  long bufferBytes() {
    long bytes = 0;
    for (QueuedUrl u : buffer) {
      bytes += u.heapBytes();
    }
    return bytes;
  }

  /** Forgets the read-ahead; the next read starts at its first URL, so nothing is lost. */
  void dropBuffer() {
    QueuedUrl first = buffer.peekFirst();
    if (first != null) {
      readFrom = first.key();
      buffer.clear();
      readAll = false;
    }
  }

  public HostState state() {
    return state;
  }

  public void setState(HostState state) {
    this.state = state;
  }

  public long nextAllowed() {
    return nextAllowed;
  }

  public byte[] scheduleKey() {
    return scheduleKey;
  }

  public int inFlight() {
    return inFlight;
  }

  /** Records that the start of the lease {@code token} was the last thing to move this host's time. */
  public void spacedBy(byte[] token) {
    spacedBy = token;
  }

  public long lastStart() {
    return lastStart;
  }

  /** Sets when the host's latest fetch started (or, for a start that made no request, when the one before did). */
  public void lastStart(long millis) {
    lastStart = millis;
  }

  /** True if the start of the lease {@code token} moved this host's time, and nothing has moved it since. */
  public boolean lastSpacedBy(byte[] token) {
    return spacedBy == token;
  }

  public boolean exhausted() {
    return exhausted;
  }

  /**
   * The next URL to hand out, read from disk when the buffer is empty; null when the host
   * has nothing unleased, which also marks it exhausted.
   */
  public QueuedUrl next(FrontierStore store, int connectionLimit) {
    if (buffer.isEmpty() && !exhausted) {
      if (!readAll) {
        int want = readAheadFor(connectionLimit, false);
        store.scan(store.queue, readStart(), readEnd(), (k, v) -> take(k, v, want));
        readDone(want);
      }
      exhausted = buffer.isEmpty();
    }
    QueuedUrl url = buffer.poll();
    if (url != null && buffer.isEmpty() && readAll) {
      exhausted = true;   // the last unleased URL: its completion may end the host without another read
    }
    return url;
  }

  /**
   * Read-ahead for this host's connection limit: one more than it may lease at once, so a
   * completion knows if more wait; {@link #KEPT_READ_AHEAD} at least if it may be kept.
   */
  static int readAheadFor(int connectionLimit, boolean mayKeep) {
    int want = connectionLimit + 1;
    return Math.min(MAX_READ_AHEAD, mayKeep ? Math.max(KEPT_READ_AHEAD, want) : want);
  }

  /** Where a read of this host's queue starts. */
  byte[] readStart() {
    return readFrom != null ? readFrom : QueuedUrl.hostStart(partition, hostKeyUtf8);
  }

  byte[] readEnd() {
    return QueuedUrl.hostEnd(partition, hostKeyUtf8);
  }

  /**
   * Takes the next entry of this host's queue on disk, read from {@link #readStart()} on (by
   * this queue, or for several hosts at once by {@link HostSchedule}'s refill); returns
   * whether it wants more. Not finding any tells nothing: only {@link #next} marks the host
   * exhausted.
   */
  boolean take(byte[] key, byte[] value, int want) {
    readFrom = Bytes.successor(key);
    if (!isLeased(key)) {
      buffer.add(QueuedUrl.decode(key, value));
    }
    return buffer.size() < want;
  }

  /** Ends a read from {@link #readStart()}: it stopped short of {@code want} only at the range's end. */
  void readDone(int want) {
    readAll = buffer.size() < want;
  }

  /** Records that {@code key}, just taken from this queue, is leased; the array itself is the lease's token. */
  public void lease(byte[] key) {
    leased.add(key);
    inFlight++;
    assert leased.size() == inFlight : hostKey + ": " + leased.size() + " leased keys, in flight " + inFlight;
  }

  public boolean isLeased(byte[] key) {
    for (int i = 0; i < leased.size(); i++) {   // no iterator: called for every completion and URL read
      if (Arrays.equals(leased.get(i), key)) {
        return true;
      }
    }
    return false;
  }

  /** True if {@code token}, the key array given to {@link #lease}, is leased now: that very lease, not its URL. */
  public boolean holds(byte[] token) {
    for (int i = 0; i < leased.size(); i++) {
      if (leased.get(i) == token) {
        return true;
      }
    }
    return false;
  }

  /** Ends the lease of {@code token}, the key array given to {@link #lease}; returns false if it was not leased. */
  public boolean release(byte[] token) {
    for (int i = 0; i < leased.size(); i++) {
      if (leased.get(i) == token) {
        leased.remove(i);
        inFlight--;
        return true;
      }
    }
    return false;
  }

  /** Tells the queue that an unleased entry {@code key} is on disk (newly offered or given back). */
  public void unread(byte[] key) {
    exhausted = false;
    readAll = false;
    if (readFrom == null || Bytes.compare(key, readFrom) >= 0) {
      return;   // the next read reaches it
    }
    byte[] from = key;
    QueuedUrl first = buffer.peekFirst();
    if (first != null && Bytes.compare(first.key(), from) < 0) {
      from = first.key();
    }
    buffer.clear();
    readFrom = from;
  }

  @Override
  public String toString() {
    return "HostQueue[" + hostKey + " p" + partition + " next " + nextAllowed + " in flight " + inFlight
        + (exhausted ? " exhausted" : "") + "]";
  }
}
