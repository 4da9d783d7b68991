package dev.crawler.frontier.internal;

import static com.google.common.base.Preconditions.checkState;

import dev.crawler.rocks.RocksLibrary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.TablePropertiesCollectorFactory;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteBufferManager;
import org.rocksdb.WriteOptions;

/**
 * The frontier's RocksDB databases: their column families, their tuning, and the few
 * operations the frontier needs (atomic batches, point reads, bounded scans). The root, opened
 * by {@link #open}, holds the store's format and lock group 0; with more than one group, each
 * other group has a database of its own in a folder of the root's ({@link #openGroups}).
 *
 * <p>Column families: {@code queue} ({@link QueuedUrl}), {@code hosts} ({@link HostState}),
 * {@code schedule} ({@link ScheduleKey}), {@code counters} ({@link PartitionCounters}), and
 * {@code default}, which holds one record, the format: key {@code "frontier-format"}, value
 * {@code [1][partitions u32]} (all groups in this database) or
 * {@code [2][partitions u32][group u16][groups u16]} (a database per group), so that a store is
 * never opened with a different partition count than it was written with, nor a group's
 * database taken for another's.
 *
 * <p>Native memory is bounded: one LRU block cache shared by all column families of all the
 * databases, and memtables charged to it through one write buffer manager. Index and filter
 * blocks are held with their table readers, outside the cache (about 30 bytes a data block; see
 * {@code familyOptions}). The write-ahead log is always on; {@code sync} adds an
 * fsync per write.
 *
 * <p>Owns every RocksDB object it creates and closes them in reverse order of creation.
 */
public final class FrontierStore implements AutoCloseable {
  static {
    RocksLibrary.load();
  }

  static final byte[] FORMAT_KEY = "frontier-format".getBytes(StandardCharsets.US_ASCII);
  /** All partitions in one database: {@code [1][partitions u32]}. */
  static final int FORMAT_VERSION = 1;
  /** A database per lock group: {@code [2][partitions u32][group u16][groups u16]} in each. */
  static final int FORMAT_VERSION_GROUP_DATABASES = 2;

  private final Deque<AutoCloseable> owned = new ArrayDeque<>();
  private final Path dir;
  /** The lock group whose database this is (0 for the root and for views of it). */
  private final int group;
  /** Shared by the root, its views and its groups' databases; owned (closed) by the root. */
  private final Tuning tuning;
  private final boolean groupsInOwnDatabases;
  /** False for a view, which shares another store's database. */
  private final boolean ownsDatabase;
  private final List<ColumnFamilyHandle> handles = new ArrayList<>();
  private final RocksDB db;
  public final ColumnFamilyHandle queue;
  public final ColumnFamilyHandle hosts;
  public final ColumnFamilyHandle schedule;
  public final ColumnFamilyHandle counters;
  private final ColumnFamilyHandle defaultFamily;
  private final GroupCommit commits;
  /** The root's format record of a new store with group databases, written once they all exist. */
  private byte[] pendingRootFormat;
  /** Iterators opened so far; read by tests and the benchmark (not exact under concurrent readers). */
  private volatile long iteratorsOpened;
  /** Seeks made by scans so far; read by tests and the benchmark (not exact under concurrent readers). */
  private volatile long seeks;

  /** Reads entries of a bounded scan; returns false to stop. */
  @FunctionalInterface
  public interface EntryVisitor {
    boolean visit(byte[] key, byte[] value);
  }

  /** RocksDB options and the memory they charge: one set for the store's databases, owned by the root. */
  private record Tuning(Cache cache, WriteBufferManager buffers, List<ColumnFamilyDescriptor> families,
      WriteOptions writeOptions, int groups) {}

  /**
   * Opens (or creates) the frontier's store in {@code dir} for {@code partitions} partitions served
   * by {@code groups} lock groups. With more than one group, a new store gives each group a
   * database of its own ({@link #openGroups}); a store written before that keeps all
   * groups in one.
   */
  public static FrontierStore open(Path dir, boolean sync, long cacheBytes, long memtableBytes, int partitions,
      int groups) {
    return new FrontierStore(dir, 0, null, partitions, true,
        root -> root.tuning(sync, cacheBytes, memtableBytes, groups));
  }

  /** A view of {@code shared}'s database with a group commit of its own; closing it closes only that. */
  private FrontierStore(FrontierStore shared) {
    this.dir = shared.dir;
    this.group = shared.group;
    this.ownsDatabase = false;
    this.tuning = shared.tuning;
    this.groupsInOwnDatabases = shared.groupsInOwnDatabases;
    this.db = shared.db;
    this.defaultFamily = shared.defaultFamily;
    this.queue = shared.queue;
    this.hosts = shared.hosts;
    this.schedule = shared.schedule;
    this.counters = shared.counters;
    this.commits = own(new GroupCommit(batch -> db.write(tuning.writeOptions(), batch)));
  }

  /**
   * Opens a database of the store: the root ({@code root} null) at {@code dir}, with the
   * store-wide format record and group 0 (every group in layout 1), and the tuning it owns; or
   * the database of group {@code group} (at least 1), in its folder under the root's, with the
   * root's tuning ({@link #openGroups}).
   */
  private FrontierStore(Path dir, int group, FrontierStore root, int partitions, boolean create,
      Function<FrontierStore, Tuning> tuningOf) {
    this.dir = dir;
    this.group = group;
    this.ownsDatabase = true;
    boolean opened = false;
    try {
      if (create) {
        Files.createDirectories(dir);
      }
      this.tuning = tuningOf.apply(this);
      this.db = openDatabase(dir, create);
      this.defaultFamily = handle(0);
      this.queue = handle(1);
      this.hosts = handle(2);
      this.schedule = handle(3);
      this.counters = handle(4);
      if (root == null) {
        this.groupsInOwnDatabases = checkRootFormat(partitions, tuning.groups());
      } else {
        checkGroupFormat(groupFormat(partitions, group, tuning.groups()));
        this.groupsInOwnDatabases = true;
      }
      // Closed first: what is staged is written before the database closes.
      this.commits = own(new GroupCommit(batch -> db.write(tuning.writeOptions(), batch)));
      opened = true;
    } catch (RocksDBException e) {
      throw new IllegalStateException("cannot open the frontier store at " + dir + ": " + e.getMessage()
          + (create ? "" : "; the store at " + root.dir + " was created with a database per partition group, and "
              + "this one is missing or damaged: restore the folder, or start the crawl afresh in a new one"), e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the frontier store folder " + dir, e);
    } finally {
      if (!opened) {
        close();
      }
    }
  }

  /**
   * The stores of the lock groups, group g at index g: views of this (root) database, each with
   * its own group commit, when all groups share it ({@link #viewWithOwnCommits()}); else group 0
   * in the root and every other in a database of its own, in folder {@code group-NN} of the
   * root's, created with the store. Groups in their own databases write side by side: each has its
   * own write-ahead log, memtables and write queue, which a shared database serializes (more
   * threads then do less). Close them all before the root.
   */
  public List<FrontierStore> openGroups(int partitions) {
    checkState(ownsDatabase && group == 0, "only the root opens groups");
    boolean create = pendingRootFormat != null;
    List<FrontierStore> stores = new ArrayList<>();
    try {
      for (int g = 0; g < tuning.groups(); g++) {
        stores.add(g == 0 || !groupsInOwnDatabases ? viewWithOwnCommits() : new FrontierStore(
            dir.resolve(String.format(Locale.ROOT, "group-%02d", g)), g, this, partitions, create, groupStore -> tuning));
      }
      if (create) {
        // Last: a crash before this leaves a store that opens as new, and finds the groups made so far.
        db.put(defaultFamily, tuning.writeOptions(), FORMAT_KEY, pendingRootFormat);
        pendingRootFormat = null;
      }
      return stores;
    } catch (RocksDBException | RuntimeException e) {
      for (int i = stores.size() - 1; i >= 0; i--) {
        stores.get(i).close();
      }
      if (e instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException("cannot write the format of the frontier store at " + dir + ": "
          + e.getMessage(), e);
    }
  }

  /**
   * The same database with its own group commit: changes staged through it are written in the
   * order staged, independently of other views', and its reads wait only for its own staged
   * changes. Given to each group of partitions that shares the root's database, whose keys no
   * other group touches. Close views before this store.
   */
  private FrontierStore viewWithOwnCommits() {
    return new FrontierStore(this);
  }

  /** Writes what is staged through this store (or view), so that a read elsewhere sees it. */
  public void writeStaged() {
    commits.flush();
  }

  /** False for a view, which shares another store's database (for sums over the store's databases). */
  public boolean ownsDatabase() {
    return ownsDatabase;
  }

  private ColumnFamilyHandle handle(int i) {
    return handles.get(i);
  }

  private RocksDB openDatabase(Path at, boolean create) throws RocksDBException {
    DBOptions dbOptions = own(new DBOptions())
        .setCreateIfMissing(create)
        .setCreateMissingColumnFamilies(true)
        // The limits below are the store's, shared out between its databases.
        .setMaxOpenFiles(Math.max(64, 512 / tuning.groups()))
        .setMaxBackgroundJobs(2)
        .setWriteBufferManager(tuning.buffers())
        // The WAL is kept until every column family has flushed what it covers; the
        // small families would otherwise hold it for a long time.
        .setMaxTotalWalSize(Math.max(32L << 20, (256L << 20) / tuning.groups()))
        .setBytesPerSync(1L << 20)
        .setKeepLogFileNum(3)
        .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
        // Replaying the log into memtables is enough; flushing them at every open costs time.
        .setAvoidFlushDuringRecovery(true)
        // One writer at a time per partition group (GroupCommit), so concurrent memtable
        // inserts buy little; and the counters' in-place updates need them off.
        .setAllowConcurrentMemtableWrite(false)
        // Groups that share a database (a format-1 store) write side by side: the log append of
        // one write overlaps the memtable inserts of the one before, about a quarter more
        // next+complete. With a database per group it is neither a gain nor a loss.
        .setEnablePipelinedWrite(true);
    List<ColumnFamilyHandle> opened = new ArrayList<>();
    RocksDB database = RocksDB.open(dbOptions, at.toString(), tuning.families(), opened);
    // Handles are closed before the database, the database before its options.
    owned.push(database);
    opened.forEach(owned::push);
    handles.addAll(opened);
    return database;
  }

  private Tuning tuning(boolean sync, long cacheBytes, long memtableBytes, int groups) {
    Cache cache = own(new LRUCache(cacheBytes));
    WriteBufferManager buffers = own(new WriteBufferManager(memtableBytes, cache));
    BloomFilter hostBloom = own(new BloomFilter(10));
    TablePropertiesCollectorFactory deletions =
        // Queues are consumed from their head: an SST whose sliding window of 1,024 entries
        // holds 256 deletes is compacted early, so seeks skip few tombstones.
        own(TablePropertiesCollectorFactory.NewCompactOnDeletionCollectorFactory(1024, 256, 0.0));
    // RocksJava sets collector factories on Options only; the column family copies them.
    Options withCollector = own(new Options());
    withCollector.setTablePropertiesCollectorFactory(List.of(deletions));
    ColumnFamilyOptions queueOptions =
        familyOptions(own(new ColumnFamilyOptions(withCollector)), cache, null, 32L << 20, 4 << 10);
    ColumnFamilyOptions hostOptions = familyOptions(own(new ColumnFamilyOptions()), cache, hostBloom, 16L << 20,
        4 << 10);
    ColumnFamilyOptions scheduleOptions = familyOptions(own(new ColumnFamilyOptions()), cache, null, 8L << 20,
        4 << 10);
    ColumnFamilyOptions smallOptions = familyOptions(own(new ColumnFamilyOptions()), cache, null, 4L << 20,
        4 << 10);
    // Every operation rewrites its partition's counters, a value of fixed size: updated in place,
    // the memtable holds one entry per partition instead of one per operation, and an insert
    // does not search a skiplist of a hundred thousand versions.
    ColumnFamilyOptions counterOptions = familyOptions(own(new ColumnFamilyOptions()), cache, null, 4L << 20,
        4 << 10).setInplaceUpdateSupport(true);
    List<ColumnFamilyDescriptor> families = List.of(
        new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, smallOptions),
        new ColumnFamilyDescriptor(bytes("queue"), queueOptions),
        new ColumnFamilyDescriptor(bytes("hosts"), hostOptions),
        new ColumnFamilyDescriptor(bytes("schedule"), scheduleOptions),
        new ColumnFamilyDescriptor(bytes("counters"), counterOptions));
    WriteOptions writeOptions = own(new WriteOptions()).setSync(sync).setDisableWAL(false);
    return new Tuning(cache, buffers, families, writeOptions, groups);
  }

  private static ColumnFamilyOptions familyOptions(ColumnFamilyOptions options, Cache cache, BloomFilter bloom,
      long writeBuffer, long blockSize) {
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setBlockCache(cache)
        .setBlockSize(blockSize)
        // Index and filter blocks live with their table readers, outside the block cache.
        // In the cache, random seeks into many queues evict them, and a seek then re-reads
        // and parses a whole index block. Held outside, they
        // cost about 30 bytes per data block: some 10 MB for 100 M queued URLs.
        .setCacheIndexAndFilterBlocks(false);
    if (bloom != null) {
      table.setFilterPolicy(bloom);
    }
    return options
        .setTableFormatConfig(table)
        .setWriteBufferSize(writeBuffer)
        .setMaxWriteBufferNumber(3)
        .setCompressionType(CompressionType.LZ4_COMPRESSION)
        // LZ4 on every level: a seek into a host's queue decompresses a block per level, and
        // ZSTD there cost several times more per next() than the bytes it saves.
        .setBottommostCompressionType(CompressionType.LZ4_COMPRESSION)
        .setLevelCompactionDynamicLevelBytes(true)
        .setTargetFileSizeBase(64L << 20);
  }

  static byte[] format(int partitions) {
    byte[] v = new byte[5];
    v[0] = FORMAT_VERSION;
    Bytes.putI32(v, 1, partitions);
    return v;
  }

  static byte[] groupFormat(int partitions, int group, int groups) {
    byte[] v = new byte[9];
    v[0] = FORMAT_VERSION_GROUP_DATABASES;
    Bytes.putI32(v, 1, partitions);
    v[5] = (byte) (group >>> 8);
    v[6] = (byte) group;
    v[7] = (byte) (groups >>> 8);
    v[8] = (byte) groups;
    return v;
  }

  /**
   * Checks (or, in a new store, decides) the root's format; returns whether the groups have
   * databases of their own. A new store with one group is written in format 1 at once; with
   * more, in format 2 once {@link #openGroups} has made every group's database. A store of
   * format 1 with more than one group (written before groups had databases) keeps them in one.
   */
  private boolean checkRootFormat(int partitions, int groups) throws RocksDBException {
    byte[] stored = db.get(defaultFamily, FORMAT_KEY);
    if (stored == null) {
      if (groups == 1) {
        db.put(defaultFamily, tuning.writeOptions(), FORMAT_KEY, format(partitions));
        return false;
      }
      pendingRootFormat = groupFormat(partitions, 0, groups);
      return true;
    }
    checkState(stored[0] == FORMAT_VERSION || stored[0] == FORMAT_VERSION_GROUP_DATABASES,
        "frontier store at %s has format version %s, this code reads %s and %s", dir, stored[0], FORMAT_VERSION,
        FORMAT_VERSION_GROUP_DATABASES);
    checkPartitions(stored, partitions);
    if (stored[0] == FORMAT_VERSION) {
      return false;
    }
    checkGroupFormat(stored, groupFormat(partitions, 0, groups));
    return true;
  }

  /** Checks a group database's format record, or writes it in a new one. */
  private void checkGroupFormat(byte[] expected) throws RocksDBException {
    byte[] stored = db.get(defaultFamily, FORMAT_KEY);
    if (stored == null) {
      db.put(defaultFamily, tuning.writeOptions(), FORMAT_KEY, expected);
      return;
    }
    checkGroupFormat(stored, expected);
  }

  private void checkGroupFormat(byte[] stored, byte[] expected) {
    checkPartitions(stored, Bytes.getI32(expected, 1));
    checkState(java.util.Arrays.equals(stored, expected), "frontier database at %s holds group %s of %s, this code "
        + "expects group %s of %s there", dir, groupOf(stored, 5), groupOf(stored, 7), groupOf(expected, 5),
        groupOf(expected, 7));
  }

  private static int groupOf(byte[] record, int at) {
    return record.length < at + 2 ? -1 : ((record[at] & 0xFF) << 8) | (record[at + 1] & 0xFF);
  }

  private void checkPartitions(byte[] stored, int partitions) {
    int storedPartitions = Bytes.getI32(stored, 1);
    checkState(storedPartitions == partitions,
        "frontier store at %s was written with %s partitions, the options ask for %s; every stored key carries "
            + "its partition, so the count cannot change", dir, storedPartitions, partitions);
  }

  private <T extends AutoCloseable> T own(T resource) {
    owned.push(resource);
    return resource;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Appends changes to the batch the next write takes (group commit, {@link GroupCommit});
   * call under the partition group's lock, so batches are staged in the order they are decided.
   * Returns the ticket to give {@link #awaitWritten}.
   */
  public long stage(GroupCommit.Changes changes) {
    return commits.stage(changes);
  }

  /**
   * Returns once the changes staged with {@code ticket} are written atomically, through the
   * write-ahead log (and an fsync under FSYNC); writes them with whatever else is staged.
   * Call it without the group's lock, so other threads can stage meanwhile.
   */
  public void awaitWritten(long ticket) {
    commits.awaitWritten(ticket);
  }

  /** Operations staged through this store (or view) and not yet taken by a write. */
  public int unwrittenStages() {
    return commits.unwrittenStages();
  }

  /** True once a write through this store (or view) failed, the close's included: what it staged since is lost. */
  public boolean writeFailed() {
    return commits.failed();
  }

  /** The ticket of the last changes staged: awaiting it waits for everything staged so far. */
  public long lastStaged() {
    return commits.lastStaged();
  }

  /** Database writes made (each holding one or more staged batches); for tests and the benchmark. */
  public long writes() {
    return commits.writes();
  }

  public long iteratorsOpened() {
    return iteratorsOpened;
  }

  public long seeks() {
    return seeks;
  }

  public byte[] get(ColumnFamilyHandle family, byte[] key) {
    commits.flush();   // every read sees every change decided before it
    try {
      return db.get(family, key);
    } catch (RocksDBException e) {
      throw new IllegalStateException("frontier read failed: " + e.getMessage(), e);
    }
  }

  /** Point reads of many keys of one family at once; nulls for absent keys. */
  public List<byte[]> multiGet(ColumnFamilyHandle family, List<byte[]> keys) {
    if (keys.isEmpty()) {
      return List.of();
    }
    commits.flush();
    List<ColumnFamilyHandle> families = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      families.add(family);
    }
    try {
      return db.multiGetAsList(families, keys);
    } catch (RocksDBException e) {
      throw new IllegalStateException("frontier read failed: " + e.getMessage(), e);
    }
  }

  /**
   * Visits the entries of {@code family} from {@code from} (inclusive) to {@code upper}
   * (exclusive), until the visitor returns false. The upper bound is given to RocksDB, so
   * the scan never reads past it, not even over tombstones.
   */
  public void scan(ColumnFamilyHandle family, byte[] from, byte[] upper, EntryVisitor visitor) {
    commits.flush();
    iteratorsOpened++;
    seeks++;
    try (Slice bound = new Slice(upper);
        ReadOptions read = new ReadOptions().setIterateUpperBound(bound);
        RocksIterator it = db.newIterator(family, read)) {
      for (it.seek(from); it.isValid(); it.next()) {
        if (!visitor.visit(it.key(), it.value())) {
          return;
        }
      }
      it.status();
    } catch (RocksDBException e) {
      throw new IllegalStateException("frontier scan failed: " + e.getMessage(), e);
    }
  }

  /** Reads entries of several ranges with one iterator; returns false to end the current range. */
  @FunctionalInterface
  public interface RangeVisitor {
    boolean visit(int range, byte[] key, byte[] value);
  }

  /**
   * Visits the entries of several ranges of {@code family}, range {@code i} from
   * {@code froms.get(i)} (inclusive) to {@code uppers.get(i)} (exclusive), with one iterator:
   * opening one costs about as much as a seek, so reading the heads of a thousand queues
   * with one halves the work. The ranges should be in ascending order. The bounds are checked
   * here, not by RocksDB, so a range whose every entry is deleted is scanned over its
   * tombstones up to the next live key; the ranges it passed on the way are not sought again.
   */
  public void scanEach(ColumnFamilyHandle family, List<byte[]> froms, List<byte[]> uppers, RangeVisitor visitor) {
    if (froms.isEmpty()) {
      return;
    }
    commits.flush();
    iteratorsOpened++;
    seeks += froms.size();
    try (ReadOptions read = new ReadOptions(); RocksIterator it = db.newIterator(family, read)) {
      // True while the iterator is at the first live key at or after the start of the range read
      // last (or at the end): it then never went past a live key it did not visit.
      boolean onFirstLiveKey = false;
      byte[] at = null;   // the key the iterator is at; null at the end
      for (int i = 0; i < froms.size(); i++) {
        byte[] from = froms.get(i);
        byte[] upper = uppers.get(i);
        // A seek that finds a range empty goes on over tombstones to the next live key, which
        // may lie past many ranges of this batch whose queues were emptied too (a drained
        // partition): those need no seek of their own, each skipping the same tombstones again.
        if (!onFirstLiveKey || (at != null && Bytes.compare(at, from) < 0)) {
          it.seek(from);
          at = it.isValid() ? it.key() : null;
        }
        onFirstLiveKey = true;
        while (at != null && Bytes.compare(at, upper) < 0) {
          if (!visitor.visit(i, at, it.value())) {
            onFirstLiveKey = false;   // stopped inside the range
            break;
          }
          it.next();
          at = it.isValid() ? it.key() : null;
        }
        it.status();
      }
    } catch (RocksDBException e) {
      throw new IllegalStateException("frontier scan failed: " + e.getMessage(), e);
    }
  }

  /** A RocksDB integer property summed over the column families, such as "rocksdb.live-sst-files-size". */
  public long property(String name) {
    long sum = 0;
    try {
      for (ColumnFamilyHandle family : List.of(defaultFamily, queue, hosts, schedule, counters)) {
        sum += db.getLongProperty(family, name);
      }
    } catch (RocksDBException e) {
      throw new IllegalStateException("cannot read property " + name + ": " + e.getMessage(), e);
    }
    return sum;
  }

  /** A RocksDB integer property of the database as a whole, read on its default column family. */
  public long familyProperty(String name) {
    try {
      return db.getLongProperty(defaultFamily, name);
    } catch (RocksDBException e) {
      throw new IllegalStateException("cannot read property " + name + ": " + e.getMessage(), e);
    }
  }

  /** Flushes memtables to SST files; used by benchmarks to measure disk use. */
  public void flush() {
    commits.flush();
    try (var flush = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
      db.flush(flush, List.of(defaultFamily, queue, hosts, schedule, counters));
    } catch (RocksDBException e) {
      throw new IllegalStateException("flush failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    // Closed in reverse order of creation: handles, then the database, then options and cache.
    while (!owned.isEmpty()) {
      AutoCloseable resource = owned.pop();
      try {
        if (resource instanceof RocksDB rocks) {
          rocks.closeE();
        } else {
          resource.close();
        }
      } catch (RocksDBException e) {
        // Expected after a storage failure (a full disk: "Seen error. Skip writing buffer."): the
        // memtables could not be flushed, but every accepted write is in the write-ahead log,
        // which the next open replays. Keep closing the rest: native memory must be released.
        org.slf4j.LoggerFactory.getLogger(FrontierStore.class).warn("The frontier's RocksDB did not close cleanly ({});"
            + " nothing accepted is lost: its write-ahead log is replayed when the crawl is resumed", e.getMessage());
      } catch (Exception e) {
        org.slf4j.LoggerFactory.getLogger(FrontierStore.class).warn("closing {} failed", resource, e);
      }
    }
  }

}
