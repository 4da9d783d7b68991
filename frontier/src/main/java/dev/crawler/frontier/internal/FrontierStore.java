package dev.crawler.frontier.internal;

import static com.google.common.base.Preconditions.checkState;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
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
 * The frontier's RocksDB database: its column families, its tuning, and the few
 * operations the frontier needs (atomic batches, point reads, bounded scans).
 *
 * <p>Column families: {@code queue} ({@link QueuedUrl}), {@code hosts} ({@link HostState}),
 * {@code schedule} ({@link ScheduleKey}), {@code counters} ({@link PartitionCounters}), and
 * {@code default}, which holds one store-wide record, the format:
 * key {@code "frontier-format"}, value {@code [version 1][partitions u32]}, so that a store is
 * never opened with a different partition count than it was written with.
 *
 * <p>Native memory is bounded: one LRU block cache shared by all column families, with
 * index and filter blocks charged to it, and memtables charged to it too through a write
 * buffer manager. The write-ahead log is always on; {@code sync} adds an fsync per write.
 *
 * <p>Owns every RocksDB object it creates and closes them in reverse order of creation.
 */
public final class FrontierStore implements AutoCloseable {
  static {
    RocksDB.loadLibrary();
  }

  static final byte[] FORMAT_KEY = "frontier-format".getBytes(StandardCharsets.US_ASCII);
  static final int FORMAT_VERSION = 1;

  private final Deque<AutoCloseable> owned = new ArrayDeque<>();
  private final RocksDB db;
  private final WriteOptions writeOptions;
  public final ColumnFamilyHandle queue;
  public final ColumnFamilyHandle hosts;
  public final ColumnFamilyHandle schedule;
  public final ColumnFamilyHandle counters;
  private final ColumnFamilyHandle defaultFamily;
  private final Path dir;
  private final GroupCommit commits;
  /** Iterators opened so far; read by tests and the benchmark (not exact under concurrent readers). */
  private volatile long iteratorsOpened;
  /** Seeks made by scans so far; read by tests and the benchmark (not exact under concurrent readers). */
  private volatile long seeks;

  /** Reads entries of a bounded scan; returns false to stop. */
  @FunctionalInterface
  public interface EntryVisitor {
    boolean visit(byte[] key, byte[] value);
  }

  private FrontierStore(Path dir, boolean sync, long cacheBytes, long memtableBytes, int partitions) {
    this.dir = dir;
    boolean opened = false;
    try {
      Files.createDirectories(dir);
      Cache cache = own(new LRUCache(cacheBytes));
      WriteBufferManager buffers = own(new WriteBufferManager(memtableBytes, cache));
      DBOptions dbOptions = own(new DBOptions())
          .setCreateIfMissing(true)
          .setCreateMissingColumnFamilies(true)
          .setMaxOpenFiles(512)
          .setMaxBackgroundJobs(2)
          .setWriteBufferManager(buffers)
          // The WAL is kept until every column family has flushed what it covers; the
          // small families would otherwise hold it for a long time.
          .setMaxTotalWalSize(256L << 20)
          .setBytesPerSync(1L << 20)
          .setKeepLogFileNum(3)
          .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
          // Replaying the log into memtables is enough; flushing them at every open costs time.
          .setAvoidFlushDuringRecovery(true)
          // One writer at a time per partition group (GroupCommit), and few groups, so
          // concurrent memtable inserts buy little; and the counters' in-place updates need them off.
          .setAllowConcurrentMemtableWrite(false)
          // Groups write side by side: with the log append of one write overlapping the memtable
          // inserts of the one before, 2 threads on 4 groups did 73-74 k next+complete/s against
          // 58-60 k without (frontier/README.md, "A lock per partition group").
          .setEnablePipelinedWrite(true);

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
      // no longer searches a skiplist of a hundred thousand versions.
      ColumnFamilyOptions counterOptions = familyOptions(own(new ColumnFamilyOptions()), cache, null, 4L << 20,
          4 << 10).setInplaceUpdateSupport(true);

      List<ColumnFamilyDescriptor> descriptors = List.of(
          new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, smallOptions),
          new ColumnFamilyDescriptor(bytes("queue"), queueOptions),
          new ColumnFamilyDescriptor(bytes("hosts"), hostOptions),
          new ColumnFamilyDescriptor(bytes("schedule"), scheduleOptions),
          new ColumnFamilyDescriptor(bytes("counters"), counterOptions));
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      this.db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
      // Handles are closed before the database, the database before its options.
      owned.push(db);
      handles.forEach(owned::push);
      this.defaultFamily = handles.get(0);
      this.queue = handles.get(1);
      this.hosts = handles.get(2);
      this.schedule = handles.get(3);
      this.counters = handles.get(4);
      this.writeOptions = own(new WriteOptions()).setSync(sync).setDisableWAL(false);
      checkFormat(partitions);
      // Closed first: what is staged is written before the database closes.
      this.commits = own(new GroupCommit(batch -> db.write(writeOptions, batch)));
      opened = true;
    } catch (RocksDBException e) {
      throw new IllegalStateException("cannot open the frontier store at " + dir + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the frontier store folder " + dir, e);
    } finally {
      if (!opened) {
        close();
      }
    }
  }

  public static FrontierStore open(Path dir, boolean sync, long cacheBytes, long memtableBytes, int partitions) {
    return new FrontierStore(dir, sync, cacheBytes, memtableBytes, partitions);
  }

  /** A view of {@code shared}'s database with a group commit of its own; closing it closes only that. */
  private FrontierStore(FrontierStore shared) {
    this.dir = shared.dir;
    this.db = shared.db;
    this.writeOptions = shared.writeOptions;
    this.defaultFamily = shared.defaultFamily;
    this.queue = shared.queue;
    this.hosts = shared.hosts;
    this.schedule = shared.schedule;
    this.counters = shared.counters;
    this.commits = own(new GroupCommit(batch -> db.write(writeOptions, batch)));
  }

  /**
   * The same database with its own group commit: changes staged through it are written in the
   * order staged, independently of other views', and its reads wait only for its own staged
   * changes. The frontier gives one to each group of partitions, whose keys no other group
   * touches. Close views before this store.
   */
  public FrontierStore viewWithOwnCommits() {
    return new FrontierStore(this);
  }

  /** Writes what is staged through this store (or view), so that a read elsewhere sees it. */
  public void writeStaged() {
    commits.flush();
  }

  private static ColumnFamilyOptions familyOptions(ColumnFamilyOptions options, Cache cache, BloomFilter bloom,
      long writeBuffer, long blockSize) {
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setBlockCache(cache)
        .setBlockSize(blockSize)
        // Index and filter blocks live with their table readers, outside the block cache.
        // In the cache, random seeks into 100,000 queues evicted them, and every seek then
        // re-read and parsed a whole index block: about 1 ms per next(). Held outside, they
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

  private void checkFormat(int partitions) throws RocksDBException {
    byte[] stored = db.get(defaultFamily, FORMAT_KEY);
    if (stored == null) {
      byte[] v = new byte[5];
      v[0] = FORMAT_VERSION;
      Bytes.putI32(v, 1, partitions);
      db.put(defaultFamily, writeOptions, FORMAT_KEY, v);
      return;
    }
    checkState(stored[0] == FORMAT_VERSION, "frontier store at %s has format version %s, this code reads %s", dir,
        stored[0], FORMAT_VERSION);
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
   * tombstones up to the next live key.
   */
  public void scanEach(ColumnFamilyHandle family, List<byte[]> froms, List<byte[]> uppers, RangeVisitor visitor) {
    if (froms.isEmpty()) {
      return;
    }
    commits.flush();
    iteratorsOpened++;
    seeks += froms.size();
    try (ReadOptions read = new ReadOptions(); RocksIterator it = db.newIterator(family, read)) {
      for (int i = 0; i < froms.size(); i++) {
        byte[] upper = uppers.get(i);
        for (it.seek(froms.get(i)); it.isValid(); it.next()) {
          byte[] key = it.key();
          if (Bytes.compare(key, upper) >= 0 || !visitor.visit(i, key, it.value())) {
            break;
          }
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
