package dev.crawler.frontier;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import dev.crawler.frontier.PartitionGroup.HostRef;
import dev.crawler.frontier.internal.FrontierStore;
import dev.crawler.frontier.internal.HostKeys;
import dev.crawler.frontier.internal.HostSchedule;
import dev.crawler.frontier.internal.HostState;
import dev.crawler.frontier.internal.PartitionCounters;
import dev.crawler.frontier.internal.Politeness;
import dev.crawler.frontier.internal.QueuedUrl;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

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
 *       completed is handed out again. A completion is durable when {@code complete} returns,
 *       or, with {@link FrontierOptions#deferredCompletions()} above 0, within about
 *       {@link #DEFERRED_WRITE_INTERVAL}: a kill -9 before then hands its URL out again too, and
 *       a {@link #close} after a failed write throws, since such completions are lost.
 *   <li>A host is handed out only when its next allowed time has come and it has fewer
 *       fetches in flight than its connection limit; among such hosts the one allowed
 *       earliest goes first (see {@link HostSchedule} for the working set's bounds on this).
 *   <li>Two leases on one host are never handed out closer than its delay, whatever its
 *       connection limit, and two requests started through {@link #startRequest} never start closer than that either; with one
 *       connection a lease also comes at least the delay after the previous one completed. A host
 *       with a robots.txt Crawl-delay has one connection (see {@code Politeness}).
 *   <li>The heap holds at most {@link FrontierOptions#workingSetHosts()} ready hosts with a
 *       few URLs each read ahead, the hosts of outstanding leases, a bounded cache of host
 *       keys, and URLs read ahead for hosts out of memory within
 *       {@link FrontierOptions#readAheadBytes()}; never all hosts or all URLs.
 * </ul>
 * Thread-safe. The partitions are split into groups ({@link FrontierOptions#partitions()} up to
 * {@link #MAX_GROUPS}), each with its own lock, schedule, working set and group commit
 * ({@link PartitionGroup}), so threads working on different groups do not wait for each other.
 * Within a group every change is staged under its lock, so batches reach RocksDB in the order
 * they were decided, and written outside it, several threads' at once (group commit, see
 * {@code GroupCommit}); {@link #offer} encodes its entries before taking any lock. Within a
 * group the host allowed earliest goes first; across groups {@link #next} looks at each in turn,
 * starting from a different one each call, so the order across groups is approximate. An offer
 * that spans groups is atomic per group.
 */
public final class Frontier implements HostQueues, AutoCloseable {
  /**
   * Locks at most: a group per lock. More groups than cores buy little; a group per partition
   * would give a cluster's 65,536 partitions a schedule each.
   */
  static final int MAX_GROUPS = 16;
  /**
   * How often the deferred writer writes the completions a group left unwritten
   * ({@link FrontierOptions#deferredCompletions()} above 0): a returned completion waits at most
   * this long, plus the time of the write that takes it (longer if RocksDB stalls its writes),
   * when no later operation of its group writes it first. Each group has its writer thread, so a
   * slow write of one group delays no other.
   */
  public static final Duration DEFERRED_WRITE_INTERVAL = Duration.ofMillis(50);
  /** Longest wait of {@link #next}: 73 years, so a deadline in nanos cannot overflow. */
  private static final Duration MAX_WAIT = Duration.ofNanos(Long.MAX_VALUE / 4);

  private final InstantSource clock;
  /** The root database: the store's format, and group 0 (every group, in a store written before groups had their own). */
  private final FrontierStore store;
  /** Each group's store, group g at g: a view of the root, or a database of its own. */
  private final List<FrontierStore> groupStores;
  private final int partitions;
  private final PartitionGroup[] groups;
  /** Completions a group may leave unwritten; 0: each is written before {@link #complete} returns. */
  private final int deferredCompletions;
  /** Writes what each group left unwritten, every {@link #DEFERRED_WRITE_INTERVAL}; null when nothing is deferred. */
  private final ScheduledExecutorService deferredWriter;
  /**
   * Where the next call of {@link #next} starts looking, so every group is looked at first in turn;
   * consecutive calls, from different threads, start at different groups (random starts would
   * often meet on one lock).
   */
  private final AtomicInteger nextGroup = new AtomicInteger();
  /** Guards close against the store reads that no group lock covers (properties, flush). */
  private final ReentrantLock closeLock = new ReentrantLock();
  private volatile boolean closed;
  /** Set by whichever thread meets a failed write; with a lock or without (awaitWritten). */
  private volatile RuntimeException failure;

  // Waiting in next(): a thread that found no ready host waits here, and every change that may
  // make a host ready bumps workVersion and wakes a waiter. A waiter counts itself in waiters
  // before it reads workVersion, and a changer bumps workVersion before it reads waiters, so a
  // change between a waiter's look at the groups and its wait is never missed.
  private final ReentrantLock waitLock = new ReentrantLock();
  private final Condition workMayBeReady = waitLock.newCondition();
  private final AtomicLong workVersion = new AtomicLong();
  private volatile int waiters;

  private Frontier(Path dir, FrontierOptions options, Duration deferredWriteInterval) {
    this.clock = options.clock();
    this.partitions = options.partitions();
    int groupCount = Math.min(partitions, MAX_GROUPS);
    this.store = FrontierStore.open(dir, options.sync() == SyncPolicy.FSYNC, options.blockCacheBytes(),
        options.memtableBytes(), partitions, groupCount);
    this.groups = new PartitionGroup[groupCount];
    List<FrontierStore> opened = new ArrayList<>();
    try {
      opened.addAll(store.openGroups(partitions));
      PartitionCounters[] counters = new PartitionCounters[partitions];
      long[] lastSeq = {0};
      for (FrontierStore database : databases(opened)) {
        database.scan(database.counters, new byte[0], new byte[] {(byte) 0xFF}, (k, v) -> {
          PartitionCounters c = PartitionCounters.decode(k, v);
          checkState(c.partition < partitions, "counters of partition %s in a store of %s partitions", c.partition,
              partitions);
          counters[c.partition] = c;
          lastSeq[0] = Math.max(lastSeq[0], c.lastSeq);
          return true;
        });
      }
      for (int g = 0; g < groupCount; g++) {
        groups[g] = new PartitionGroup(this, opened.get(g), options, g, groupCount, counters, lastSeq[0]);
      }
    } catch (RuntimeException e) {
      closeGroupsAndStores(opened);
      throw e;
    }
    this.groupStores = List.copyOf(opened);
    this.deferredCompletions = options.deferredCompletions();
    try {
      this.deferredWriter = deferredCompletions == 0 ? null : startDeferredWriter(deferredWriteInterval);
    } catch (RuntimeException | Error e) {   // no thread to be had: the databases must still close
      closeGroupsAndStores(opened);
      throw e;
    }
    // Leases do not survive a restart: nothing is in flight, and every URL leased before is
    // still in its queue at or after its host's first key, where the next read starts.
  }

  /** Opens (or creates) the frontier stored in {@code dir}. */
  public static Frontier open(Path dir, FrontierOptions options) {
    return open(dir, options, DEFERRED_WRITE_INTERVAL);
  }

  /** As {@link #open(Path, FrontierOptions)}, with another interval for the deferred writer; for tests. */
  static Frontier open(Path dir, FrontierOptions options, Duration deferredWriteInterval) {
    checkNotNull(dir, "dir");
    checkNotNull(options, "options");
    checkNotNull(deferredWriteInterval, "deferredWriteInterval");
    checkArgument(deferredWriteInterval.isPositive(), "deferredWriteInterval (%s) must be > 0", deferredWriteInterval);
    return new Frontier(dir, options, deferredWriteInterval);
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
    // Outside any lock: everything that does not depend on the frontier's state.
    int n = entries.size();
    Map<String, HostRef> batchHosts = new LinkedHashMap<>();
    HostRef[] refs = new HostRef[n];
    int[] priorities = new int[n];
    byte[][] values = new byte[n][];
    int[] perGroup = new int[groups.length];
    int i = 0;
    for (FrontierEntry e : entries) {
      checkNotNull(e, "entry %s of the batch is null", i);
      refs[i] = batchHosts.computeIfAbsent(e.hostKey(), this::hostRef);
      priorities[i] = e.priority();
      values[i] = QueuedUrl.value(e.url(), e.depth(), e.redirectHops(), e.via());
      perGroup[groupOf(refs[i].partition)]++;
      i++;
    }
    long[] tickets = new long[groups.length];
    if (groups.length == 1) {
      tickets[0] = groups[0].offer(refs, priorities, values, batchHosts.values());
    } else {
      for (int g = 0; g < groups.length; g++) {
        if (perGroup[g] > 0) {
          tickets[g] = offerToGroup(g, perGroup[g], refs, priorities, values, batchHosts.values());
        }
      }
    }
    workChanged(true);
    for (int g = 0; g < groups.length; g++) {
      if (tickets[g] != 0) {
        groups[g].awaitWritten(tickets[g]);
      }
    }
  }

  /** The entries of one group, in their order in the batch. */
  private long offerToGroup(int g, int count, HostRef[] refs, int[] priorities, byte[][] values,
      Collection<HostRef> batchHosts) {
    HostRef[] groupRefs = new HostRef[count];
    int[] groupPriorities = new int[count];
    byte[][] groupValues = new byte[count][];
    int k = 0;
    for (int i = 0; i < refs.length; i++) {
      if (groupOf(refs[i].partition) == g) {
        groupRefs[k] = refs[i];
        groupPriorities[k] = priorities[i];
        groupValues[k] = values[i];
        k++;
      }
    }
    List<HostRef> groupHosts = new ArrayList<>();
    for (HostRef ref : batchHosts) {
      if (groupOf(ref.partition) == g) {
        groupHosts.add(ref);
      }
    }
    return groups[g].offer(groupRefs, groupPriorities, groupValues, groupHosts);
  }

  /**
   * Hands out a URL of a host that may be fetched now, waiting up to {@code timeout} for one;
   * empty if none became ready in time or the frontier was closed meanwhile. With a timeout
   * of zero it does not wait.
   */
  @Override
  public Optional<Lease> next(Duration timeout) throws InterruptedException {
    checkNotNull(timeout, "timeout");
    checkArgument(!timeout.isNegative(), "timeout (%s) must be >= 0", timeout);
    if (Thread.interrupted()) {
      throw new InterruptedException();
    }
    // Compared before converting: toNanos() throws beyond 292 years, and a caller may ask to wait "forever".
    long deadline = System.nanoTime()
        + (timeout.compareTo(MAX_WAIT) >= 0 ? MAX_WAIT.toNanos() : timeout.toNanos());
    long[] groupEarliest = new long[1];
    while (true) {
      if (closed) {
        return Optional.empty();
      }
      checkUsable();
      long version = workVersion.get();
      long now = now();
      long earliest = Long.MAX_VALUE;
      int start = groups.length == 1 ? 0 : Math.floorMod(nextGroup.getAndIncrement(), groups.length);
      for (int i = 0; i < groups.length; i++) {
        Lease lease = groups[(start + i) % groups.length].tryLease(now, groupEarliest);
        if (lease != null) {
          return Optional.of(lease);
        }
        earliest = Math.min(earliest, groupEarliest[0]);
      }
      long wait = deadline - System.nanoTime();
      if (wait <= 0) {
        return Optional.empty();
      }
      if (earliest != Long.MAX_VALUE) {
        wait = Math.min(wait, TimeUnit.MILLISECONDS.toNanos(Math.max(1, earliest - now)));
      }
      waitLock.lockInterruptibly();
      try {
        waiters++;
        try {
          if (workVersion.get() == version && !closed) {
            workMayBeReady.awaitNanos(wait);
          }
        } finally {
          waiters--;
        }
      } finally {
        waitLock.unlock();
      }
    }
  }

  /** Wakes one waiting {@link #next}, or all of them, after a change that may have made hosts ready. */
  private void workChanged(boolean all) {
    workVersion.incrementAndGet();
    if (waiters > 0) {
      waitLock.lock();
      try {
        if (all) {
          workMayBeReady.signalAll();
        } else {
          workMayBeReady.signal();
        }
      } finally {
        waitLock.unlock();
      }
    }
  }

  /**
   * Ends a lease. FETCHED and FAILED remove the URL; RETRY_AFTER and DEFERRED keep it at the head of its
   * host's queue. The host's next allowed time follows from the outcome (see
   * {@link Politeness}). Durable when it returns, unless {@link FrontierOptions#deferredCompletions()}
   * lets it wait for a later write (within {@link #DEFERRED_WRITE_INTERVAL}).
   *
   * @throws IllegalArgumentException if the lease was already completed or is from another
   *     frontier (or from before a reopen)
   */
  @Override
  public void complete(Lease lease, FetchOutcome outcome) {
    checkNotNull(lease, "lease");
    checkNotNull(outcome, "outcome");
    checkArgument(lease.owner == this,
        "lease of %s is from another frontier or from before a reopen; leases do not survive a close", lease.url());
    long ticket = lease.group.complete(lease, outcome);
    workChanged(false);
    // Outside the lock: the other fetchers lease and stage meanwhile, and the first to get
    // here writes all their completions in one write (GroupCommit). Deferred, a completion
    // leaves its write to a later one: with two fetcher threads on separate groups nobody
    // else shares a group's write, and its write-ahead-log append is a large share of the CPU
    // of next+complete.
    // Counted with this completion's own stage: more than N waiting, and this one writes them.
    if (deferredCompletions == 0 || lease.group.unwrittenStages() > deferredCompletions) {
      lease.group.awaitWritten(ticket);
    }
  }

  /**
   * Whether the request of {@code lease} may still go out: false if its host's politeness got
   * stricter since it was leased (fewer connections or a longer delay: a robots.txt Crawl-delay
   * learnt meanwhile, by another fetch of its queue). Then the caller makes no request and
   * completes the lease as {@link FetchOutcome#DEFERRED}, so that it comes back under the new
   * rules. Asked just before the request, after anything that may take time (a robots.txt fetch).
   *
   * @throws IllegalArgumentException if the lease was already completed or is from another
   *     frontier (or from before a reopen)
   */
  @Override
  public boolean mayRequest(Lease lease) {
    checkNotNull(lease, "lease");
    checkArgument(lease.owner == this,
        "lease of %s is from another frontier or from before a reopen; leases do not survive a close", lease.url());
    return lease.group.mayRequest(lease);
  }

  /**
   * Starts the request of {@code lease} now, if its host allows: returns 0, and from now the next
   * request of the host waits its delay. Else returns the milliseconds to wait before asking
   * again. Only a host with several connections and a delay is ever made to wait: its leases are
   * handed out the delay apart, but a request may leave later than its lease (after a robots.txt
   * lookup, a DNS lookup, a slow connect) and so come closer than the delay to the next one, or
   * even after it. Asked just before the request's first byte, this keeps the starts themselves
   * apart. Other hosts get 0 at once; a lease that makes no request need not ask.
   *
   * @throws IllegalArgumentException if the lease was already completed or is from another
   *     frontier (or from before a reopen)
   */
  public long tryStartRequest(Lease lease) {
    checkNotNull(lease, "lease");
    checkArgument(lease.owner == this,
        "lease of %s is from another frontier or from before a reopen; leases do not survive a close", lease.url());
    return lease.group.tryStartRequest(lease);
  }

  /** {@link #tryStartRequest} until the request may start, sleeping as it says in between. */
  @Override
  public void startRequest(Lease lease) throws InterruptedException {
    for (long wait = tryStartRequest(lease); wait > 0; wait = tryStartRequest(lease)) {
      Thread.sleep(wait);
    }
  }

  /** A writer thread a group, each writing its group's unwritten completions every {@code interval}. */
  private ScheduledExecutorService startDeferredWriter(Duration interval) {
    AtomicInteger made = new AtomicInteger();
    ScheduledExecutorService writer = Executors.newScheduledThreadPool(groups.length, task -> {
      Thread thread = new Thread(task, "frontier-deferred-writer-" + made.getAndIncrement());
      thread.setDaemon(true);   // close() stops them; a JVM that exits without close loses only what kill -9 would
      return thread;
    });
    long nanos = interval.toNanos();
    for (PartitionGroup group : groups) {
      writer.scheduleWithFixedDelay(() -> writeDeferred(group), nanos, nanos, TimeUnit.NANOSECONDS);
    }
    return writer;
  }

  /**
   * Writes the group's unwritten completions. A failed write is the frontier's failure: every later
   * call reports it, {@link #close} included.
   */
  private static void writeDeferred(PartitionGroup group) {
    try {
      group.writeStaged();
    } catch (RuntimeException e) {
      // recorded by awaitWritten (failed); thrown here it would only cancel this group's writes
    }
  }

  /**
   * Sets a host's robots.txt Crawl-delay. The delay between its fetches becomes
   * {@code max(defaultDelay, min(crawlDelay, maxCrawlDelay))} from its next completion on.
   * Kept while the host is idle, and across restarts.
   */
  @Override
  public void setCrawlDelay(String hostKey, Duration crawlDelay) {
    checkNotNull(crawlDelay, "crawlDelay");
    checkArgument(!crawlDelay.isNegative(), "crawlDelay (%s) must be >= 0", crawlDelay);
    long millis = Politeness.saturatedMillis(crawlDelay);
    updateHostState(hostKey, s -> s.withCrawlDelay(millis));
  }

  /**
   * Forgets the host's robots.txt Crawl-delay: it goes back to the default delay. For a
   * robots.txt that no longer has one (or is gone); writes nothing if the host had none.
   */
  @Override
  public void clearCrawlDelay(String hostKey) {
    updateHostState(hostKey, s -> s.withCrawlDelay(-1));
  }

  /**
   * The least time between two fetches of a host as its settings give it now: its robots.txt
   * Crawl-delay within {@code maxCrawlDelay}, never below {@code defaultDelay}. For whoever must
   * keep a host's delay outside this frontier (a partition handed to another node).
   */
  public Duration hostDelay(String hostKey) {
    checkNotNull(hostKey, "hostKey");
    HostRef ref = hostRef(hostKey);
    return Duration.ofMillis(groups[groupOf(ref.partition)].delayMillis(ref));
  }

  /** Sets how many fetches of a host may be in flight at once, in [1, 1024]; kept across restarts. */
  public void setConnectionLimit(String hostKey, int connections) {
    checkArgument(connections >= 1 && connections <= FrontierOptions.MAX_CONNECTIONS_PER_HOST,
        "connections (%s) must be in [1, %s]", connections, FrontierOptions.MAX_CONNECTIONS_PER_HOST);
    updateHostState(hostKey, s -> s.withConnectionLimit(connections));
  }

  private void updateHostState(String hostKey, UnaryOperator<HostState> change) {
    checkNotNull(hostKey, "hostKey");
    HostRef ref = hostRef(hostKey);
    PartitionGroup group = groups[groupOf(ref.partition)];
    long ticket = group.updateHostState(ref, change);
    workChanged(true);
    group.awaitWritten(ticket);
  }

  /** The frontier's counts now. */
  @Override
  public FrontierStats stats() {
    checkUsable();
    long[] sums = new long[7];
    long now = now();
    for (PartitionGroup group : groups) {
      group.addCounts(sums, now);
    }
    return new FrontierStats(sums[0], sums[1], (int) sums[2], sums[3], sums[4], sums[5], sums[6]);
  }

  /** Bytes of the store's SST files on disk (after {@link #flush()}, all of its data). */
  public long diskBytes() {
    return storeProperty("rocksdb.live-sst-files-size");
  }

  /**
   * Native memory of the block cache all the frontier's databases share, the memtables charged
   * to it included (RocksDB's {@code rocksdb.block-cache-usage}, read once: it is one cache).
   */
  public long blockCacheBytes() {
    closeLock.lock();
    try {
      checkUsable();
      return store.familyProperty("rocksdb.block-cache-usage");
    } finally {
      closeLock.unlock();
    }
  }

  /** Bytes of the memtables of every database of the frontier (RocksDB's {@code rocksdb.cur-size-all-mem-tables}). */
  public long memtableBytes() {
    return storeProperty("rocksdb.cur-size-all-mem-tables");
  }

  /** Writes memtables to disk files; not needed for durability (the write-ahead log gives it). */
  public void flush() {
    closeLock.lock();
    try {
      checkUsable();
      for (PartitionGroup group : groups) {
        group.writeStaged();
      }
      for (FrontierStore database : databases(groupStores)) {
        database.flush();
      }
    } finally {
      closeLock.unlock();
    }
  }

  /** A RocksDB integer property summed over the column families; for the benchmark. */
  long storeProperty(String name) {
    closeLock.lock();
    try {
      checkUsable();
      long sum = 0;
      for (FrontierStore database : databases(groupStores)) {
        sum += database.property(name);
      }
      return sum;
    } finally {
      closeLock.unlock();
    }
  }

  /** Database writes made since open, each holding one or more operations (group commit); for tests and the benchmark. */
  long storeWrites() {
    long writes = 0;
    for (PartitionGroup group : groups) {
      writes += group.writes();
    }
    return writes;
  }

  /** Iterators opened on the store since open; for tests and the benchmark. */
  long storeIterators() {
    long iterators = 0;
    for (PartitionGroup group : groups) {
      iterators += group.iteratorsOpened();
    }
    return iterators;
  }

  /** Seeks made by scans since open (one per host whose queue a refill reads); for tests and the benchmark. */
  long storeSeeks() {
    long seeks = 0;
    for (PartitionGroup group : groups) {
      seeks += group.seeks();
    }
    return seeks;
  }

  /** Checks the working sets' invariants ({@link HostSchedule}); O(hosts in memory), for tests. */
  boolean invariantsHold() {
    for (PartitionGroup group : groups) {
      if (!group.invariantsHold()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Closes the store. Outstanding leases are dropped: their URLs are still queued and are
   * handed out again after a reopen. Threads waiting in {@link #next} return empty.
   */
  @Override
  public void close() {
    closeLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      workChanged(true);
      stopDeferredWriter();
      closeGroupsAndStores(groupStores);
      if (deferredCompletions > 0 && (failure != null || anyWriteFailed())) {
        // Completions that returned without being written are gone: the caller must not take
        // this close for a clean one.
        throw new IllegalStateException("The frontier's writes failed"
            + (failure != null ? " (" + failure.getMessage() + ")" : "")
            + ": completions that returned unwritten (deferredCompletions) are lost, and their URLs will be"
            + " handed out again after a reopen", failure);
      }
    } finally {
      closeLock.unlock();
    }
  }

  private boolean anyWriteFailed() {
    if (store.writeFailed()) {
      return true;
    }
    for (FrontierStore groupStore : groupStores) {
      if (groupStore.writeFailed()) {
        return true;
      }
    }
    return false;
  }

  /** Stops the deferred writer, letting a write under way end; the groups' close writes what is left. */
  private void stopDeferredWriter() {
    if (deferredWriter == null) {
      return;
    }
    deferredWriter.shutdown();
    boolean interrupted = false;
    while (true) {
      try {
        if (deferredWriter.awaitTermination(1, TimeUnit.MINUTES)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true;   // close must not leave the writer running against closed databases
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** The store's databases: the root, and the groups' own if they have them. */
  private List<FrontierStore> databases(List<FrontierStore> stores) {
    List<FrontierStore> databases = new ArrayList<>();
    databases.add(store);
    for (FrontierStore groupStore : stores) {
      if (groupStore.ownsDatabase()) {
        databases.add(groupStore);
      }
    }
    return databases;
  }

  /** Each group waits for its operation in progress and writes what it staged; then the databases close. */
  private void closeGroupsAndStores(List<FrontierStore> stores) {
    try {
      for (PartitionGroup group : groups) {
        if (group != null) {
          group.close();
        }
      }
    } finally {
      // A group's store whose group was never made (a failed open) is closed here; closing twice is harmless.
      for (FrontierStore groupStore : stores) {
        groupStore.close();
      }
      store.close();
    }
  }

  /** After a failed write the in-memory state may be ahead of the disk: refuse further use. */
  RuntimeException failed(RuntimeException e) {
    if (failure == null) {
      failure = e;
    }
    return e;
  }

  void checkUsable() {
    checkState(!closed, "frontier is closed");
    checkNotFailed();
  }

  void checkNotFailed() {
    if (failure != null) {
      throw new IllegalStateException("frontier stopped after a failed write; reopen it", failure);
    }
  }

  /** True once {@link #close} has begun: {@link #next} then returns empty rather than failing. */
  boolean isClosed() {
    return closed;
  }

  long now() {
    long now = clock.millis();
    checkState(now >= 0, "clock reads %s ms, before 1970", now);
    return now;
  }

  private int groupOf(int partition) {
    return partition % groups.length;
  }

  private HostRef hostRef(String hostKey) {
    byte[] utf8 = HostKeys.utf8(hostKey);
    return new HostRef(hostKey, utf8, HostKeys.partition(utf8, partitions));
  }
}
