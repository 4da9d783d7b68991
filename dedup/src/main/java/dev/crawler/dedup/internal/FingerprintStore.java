package dev.crawler.dedup.internal;

import dev.crawler.dedup.UrlFingerprint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The exact store of URL fingerprints, in RocksDB: the URL-seen service's truth. Under
 * the {@code verify} policy it confirms the Bloom filter's "maybe"; under both policies
 * it is what the filter is rebuilt from after a crash.
 *
 * <p>Layout (column family "fingerprints"): key = the 16 bytes of
 * {@link UrlFingerprint#toBytes()} (high half first, big-endian), value = empty.
 * Column family "default" holds metadata: key "format" = one byte, the format
 * version ({@link #FORMAT_VERSION}); key "filter-clean" = present only while the
 * filter files on disk hold every fingerprint of the store (written on a clean close,
 * deleted, with sync, before the first write after opening).
 */
public final class FingerprintStore implements AutoCloseable {
  public static final int FORMAT_VERSION = 1;
  static final byte[] FORMAT_KEY = "format".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  static final byte[] CLEAN_KEY = "filter-clean".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] EMPTY = new byte[0];
  /**
   * Threads one {@link #containsAll} may read with. With 2 callers and 13 cold keys a call
   * (SeenThroughput at 10^8 URLs), reads waited about 290 µs each, one at a time per caller.
   */
  static final int PARALLEL_READS = 8;
  /** Keys a parallel read takes at least: fewer, and the hand-off costs more than it saves. */
  static final int KEYS_PER_PARALLEL_READ = 2;
  /** A key read from memory takes 1-3 µs, one from the disk 100 µs or more; between them, the line. */
  static final long DISK_READ_NANOS = 30_000;

  static {
    RocksDB.loadLibrary();
  }

  // Owned native resources, closed in reverse order of creation.
  private final LRUCache blockCache;
  private final BloomFilter sstFilter;
  private final ColumnFamilyOptions columnOptions;
  private final DBOptions dbOptions;
  private final RocksDB db;
  private final ColumnFamilyHandle metaFamily;
  private final ColumnFamilyHandle fingerprintFamily;
  private final WriteOptions writeOptions;
  private final WriteOptions syncWriteOptions;
  private final ReadOptions readOptions;
  private final ExecutorService readers;
  /** Recent reads' time a key, nanoseconds; a hint for {@link #containsAll}, so not exact under races. */
  private volatile long nanosPerKeyAverage;

  /**
   * @param directory the store's folder; created if missing
   * @param syncWrites fsync every write (survives a power cut) instead of the write-ahead
   *     log alone (survives a killed process)
   * @param blockCacheBytes RocksDB's block cache; the hot part of the store lives there
   */
  public FingerprintStore(Path directory, boolean syncWrites, long blockCacheBytes) throws IOException {
    Files.createDirectories(directory);
    blockCache = new LRUCache(blockCacheBytes);
    sstFilter = new BloomFilter(10, false);
    columnOptions = new ColumnFamilyOptions()
        .setTableFormatConfig(new BlockBasedTableConfig()
            .setBlockCache(blockCache)
            .setFilterPolicy(sstFilter)
            .setCacheIndexAndFilterBlocks(true)
            .setPinL0FilterAndIndexBlocksInCache(true))
        // Keys are random: most lookups of new URLs stop at the SST filters.
        .setLevelCompactionDynamicLevelBytes(true);
    dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
        .setMaxBackgroundJobs(2).setMaxOpenFiles(512).setKeepLogFileNum(3);
    List<ColumnFamilyDescriptor> families = List.of(
        new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, columnOptions),
        new ColumnFamilyDescriptor("fingerprints".getBytes(java.nio.charset.StandardCharsets.US_ASCII), columnOptions));
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try {
      db = RocksDB.open(dbOptions, directory.toString(), families, handles);
    } catch (RocksDBException e) {
      closeOptions();
      throw new IOException("Cannot open the URL-seen store in " + directory + ": " + e.getMessage(), e);
    }
    metaFamily = handles.get(0);
    fingerprintFamily = handles.get(1);
    writeOptions = new WriteOptions().setSync(syncWrites);
    syncWriteOptions = new WriteOptions().setSync(true);
    readOptions = new ReadOptions();
    readers = Executors.newFixedThreadPool(PARALLEL_READS - 1,
        Thread.ofPlatform().name("url-seen-read-", 1).daemon().factory());
    try {
      checkFormat(directory);
    } catch (IOException e) {
      close();
      throw e;
    }
  }

  private void checkFormat(Path directory) throws IOException {
    try {
      byte[] format = db.get(metaFamily, FORMAT_KEY);
      if (format == null) {
        db.put(metaFamily, syncWriteOptions, FORMAT_KEY, new byte[] {FORMAT_VERSION});
      } else if (format.length != 1 || format[0] != FORMAT_VERSION) {
        throw new IOException("The URL-seen store in " + directory + " has format "
            + (format.length == 1 ? format[0] : "?") + "; this version reads format " + FORMAT_VERSION);
      }
    } catch (RocksDBException e) {
      throw new IOException("Cannot read the URL-seen store in " + directory + ": " + e.getMessage(), e);
    }
  }

  /**
   * For each fingerprint, whether the store holds it. One batched read (RocksDB multiGet) while
   * reads are served from memory; once they wait on the disk, the batch is split over
   * {@link #PARALLEL_READS} threads, since RocksDB's multiGet reads the blocks it misses one
   * after the other and the disk serves several reads at once.
   */
  public boolean[] containsAll(List<UrlFingerprint> fingerprints) throws RocksDBException {
    boolean[] found = new boolean[fingerprints.size()];
    int chunks = readsGoToDisk() ? Math.min(PARALLEL_READS, fingerprints.size() / KEYS_PER_PARALLEL_READ) : 1;
    if (chunks <= 1) {
      long started = System.nanoTime();
      read(fingerprints, 0, fingerprints.size(), found);
      noteReadTime(System.nanoTime() - started, fingerprints.size());
      return found;
    }
    long started = System.nanoTime();
    int size = fingerprints.size();
    List<Future<?>> others = new ArrayList<>(chunks - 1);
    for (int c = 1; c < chunks; c++) {
      int from = size * c / chunks;
      int to = size * (c + 1) / chunks;
      others.add(readers.submit(() -> {
        read(fingerprints, from, to, found);
        return null;
      }));
    }
    read(fingerprints, 0, size / chunks, found);
    for (Future<?> other : others) {
      try {
        other.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while reading the URL-seen store", e);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RocksDBException r) {
          throw r;
        }
        throw new IllegalStateException("URL-seen store read failed: " + e.getCause(), e.getCause());
      }
    }
    // Per key of one chunk: the time a key waited, as the single-read case measures it.
    noteReadTime((System.nanoTime() - started) * chunks, size);
    return found;
  }

  /** Reads fingerprints {@code from} (inclusive) to {@code to} into {@code found}: one multiGet. */
  private void read(List<UrlFingerprint> fingerprints, int from, int to, boolean[] found) throws RocksDBException {
    List<ColumnFamilyHandle> families = new ArrayList<>(to - from);
    List<byte[]> keys = new ArrayList<>(to - from);
    for (int i = from; i < to; i++) {
      families.add(fingerprintFamily);
      keys.add(fingerprints.get(i).toBytes());
    }
    List<byte[]> values = db.multiGetAsList(readOptions, families, keys);
    for (int i = 0; i < values.size(); i++) {
      found[from + i] = values.get(i) != null;
    }
  }

  /** Whether recent reads took disk time: an average above {@link #DISK_READ_NANOS} a key. */
  boolean readsGoToDisk() {
    return nanosPerKeyAverage > DISK_READ_NANOS;
  }

  /** Moves the average an eighth of the way towards this read's time a key (racy updates are harmless: a hint). */
  void noteReadTime(long nanos, int keys) {
    if (keys > 0) {
      nanosPerKeyAverage += (nanos / keys - nanosPerKeyAverage) / 8;
    }
  }

  public boolean contains(UrlFingerprint fingerprint) throws RocksDBException {
    byte[] key = fingerprint.toBytes();
    // keyMayExist answers from memory (SST filters, memtable) for most absent keys.
    if (!db.keyMayExist(fingerprintFamily, key, null)) {
      return false;
    }
    return db.get(fingerprintFamily, readOptions, key) != null;
  }

  /** Adds the fingerprints in one atomic, logged write. */
  public void addAll(List<UrlFingerprint> fingerprints) throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      for (UrlFingerprint fp : fingerprints) {
        batch.put(fingerprintFamily, fp.toBytes(), EMPTY);
      }
      db.write(writeOptions, batch);
    }
  }

  /** Calls {@code action} with every stored fingerprint, in key order. */
  public long forEach(Consumer<UrlFingerprint> action) {
    long count = 0;
    try (RocksIterator it = db.newIterator(fingerprintFamily, readOptions)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        action.accept(UrlFingerprint.fromBytes(it.key()));
        count++;
      }
    }
    return count;
  }

  /** RocksDB's estimate of the stored fingerprints (exact after a compaction, close otherwise). */
  public long estimatedCount() throws RocksDBException {
    return db.getLongProperty(fingerprintFamily, "rocksdb.estimate-num-keys");
  }

  /** Bytes the store's files take on disk. */
  public long diskBytes() throws RocksDBException {
    return db.getLongProperty(fingerprintFamily, "rocksdb.total-sst-files-size")
        + db.getLongProperty(fingerprintFamily, "rocksdb.cur-size-all-mem-tables");
  }

  public boolean isFilterClean() throws RocksDBException {
    return db.get(metaFamily, CLEAN_KEY) != null;
  }

  /** Records (with fsync) whether the filter files hold every fingerprint of the store. */
  public void setFilterClean(boolean clean) throws RocksDBException {
    if (clean) {
      db.put(metaFamily, syncWriteOptions, CLEAN_KEY, EMPTY);
    } else {
      db.delete(metaFamily, syncWriteOptions, CLEAN_KEY);
    }
  }

  /** Forces the write-ahead log to disk (it is written on every write; this syncs it). */
  public void syncWal() throws RocksDBException {
    db.syncWal();
  }

  @Override
  public void close() {
    // Reads run only inside a containsAll call, which waits for them; nothing is left running here.
    readers.shutdownNow();
    readOptions.close();
    syncWriteOptions.close();
    writeOptions.close();
    fingerprintFamily.close();
    metaFamily.close();
    db.close();
    closeOptions();
  }

  private void closeOptions() {
    dbOptions.close();
    columnOptions.close();
    sstFilter.close();
    blockCache.close();
  }
}
