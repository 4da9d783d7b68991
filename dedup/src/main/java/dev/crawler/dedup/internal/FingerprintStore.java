package dev.crawler.dedup.internal;

import dev.crawler.dedup.UrlFingerprint;
import dev.crawler.rocks.RocksLibrary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.IndexType;
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

  static {
    RocksLibrary.load();
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
    // Index and filters are cut into 4 KB partitions under a small top level kept in the cache:
    // whole per-file blocks (megabytes for a 64 MB file of 16-byte keys) pushed each other out
    // of a 64 MB cache at 10^8 URLs, and every cold read copied one in again. The last level, 90% of the keys, gets no filter: VERIFY reads keys the
    // Bloom filter called "maybe", nearly all present, and a filter only saves reads of absent
    // keys (RocksDB's optimize_filters_for_hits).
    columnOptions = new ColumnFamilyOptions()
        .setTableFormatConfig(new BlockBasedTableConfig()
            .setBlockCache(blockCache)
            .setFilterPolicy(sstFilter)
            .setIndexType(IndexType.kTwoLevelIndexSearch)
            .setPartitionFilters(true)
            .setMetadataBlockSize(4096)
            .setCacheIndexAndFilterBlocks(true)
            .setCacheIndexAndFilterBlocksWithHighPriority(true)
            .setPinTopLevelIndexAndFilter(true)
            .setPinL0FilterAndIndexBlocksInCache(true))
        .setOptimizeFiltersForHits(true)
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

  /** For each fingerprint, whether the store holds it; one batched read (RocksDB multiGet). */
  public boolean[] containsAll(List<UrlFingerprint> fingerprints) throws RocksDBException {
    List<ColumnFamilyHandle> families = new ArrayList<>(fingerprints.size());
    List<byte[]> keys = new ArrayList<>(fingerprints.size());
    for (UrlFingerprint fp : fingerprints) {
      families.add(fingerprintFamily);
      keys.add(fp.toBytes());
    }
    List<byte[]> values = db.multiGetAsList(readOptions, families, keys);
    boolean[] found = new boolean[values.size()];
    for (int i = 0; i < found.length; i++) {
      found[i] = values.get(i) != null;
    }
    return found;
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

  /**
   * Calls {@code action} with every stored fingerprint, in key order.
   *
   * @throws IOException if the store cannot be read to its end (a damaged file): an iterator
   *     that meets an error just stops, and a filter rebuilt from part of the store would say
   *     "new" for every URL after the damage
   */
  public long forEach(Consumer<UrlFingerprint> action) throws IOException {
    long count = 0;
    try (RocksIterator it = db.newIterator(fingerprintFamily, readOptions)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        action.accept(UrlFingerprint.fromBytes(it.key()));
        count++;
      }
      try {
        it.status();
      } catch (RocksDBException e) {
        throw new IOException("the URL-seen store cannot be read to its end (" + String.format(Locale.ROOT, "%,d", count)
            + " fingerprints read): " + e.getMessage() + "; restore its folder, or start the crawl afresh", e);
      }
    }
    return count;
  }

  /** Writes the memtable out to a table file (tests use it to damage one). */
  public void flush() throws RocksDBException {
    try (org.rocksdb.FlushOptions options = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
      db.flush(options, fingerprintFamily);
    }
  }

  /** RocksDB's estimate of the stored fingerprints (exact after a compaction, close otherwise). */
  public long estimatedCount() throws RocksDBException {
    return db.getLongProperty(fingerprintFamily, "rocksdb.estimate-num-keys");
  }

  /**
   * Work the store's background compactions have yet to do: bytes RocksDB estimates it must
   * compact, plus one for each compaction running or memtable flush pending. Zero once the store
   * has settled after a burst of writes.
   */
  public long compactionBacklog() throws RocksDBException {
    return db.getLongProperty(fingerprintFamily, "rocksdb.estimate-pending-compaction-bytes")
        + db.getLongProperty(fingerprintFamily, "rocksdb.num-running-compactions")
        + db.getLongProperty(fingerprintFamily, "rocksdb.mem-table-flush-pending");
  }

  /** Native memory of the store: its block cache in use and its memtables. */
  public long memoryBytes() throws RocksDBException {
    return db.getLongProperty(fingerprintFamily, "rocksdb.block-cache-usage")
        + db.getLongProperty(fingerprintFamily, "rocksdb.cur-size-all-mem-tables");
  }

  /** Bytes the store's files take on disk. */
  public long diskBytes() throws RocksDBException {
    return db.getLongProperty(fingerprintFamily, "rocksdb.total-sst-files-size")
        + db.getLongProperty(fingerprintFamily, "rocksdb.cur-size-all-mem-tables");
  }

  /**
   * The signature of the filter stack saved with every fingerprint of the store
   * ({@link FilterStack#signature}); null if the files may lag behind the store, and empty if
   * they were saved by a build that wrote no signature.
   */
  public byte[] savedFilterSignature() throws RocksDBException {
    return db.get(metaFamily, CLEAN_KEY);
  }

  /** Records (with fsync) that the filter files, of this signature, hold every fingerprint of the store. */
  public void setFilterSaved(byte[] signature) throws RocksDBException {
    db.put(metaFamily, syncWriteOptions, CLEAN_KEY, signature);
  }

  /** Records (with fsync) that the filter files may lag behind the store from now on. */
  public void setFilterUnsaved() throws RocksDBException {
    db.delete(metaFamily, syncWriteOptions, CLEAN_KEY);
  }

  /** Forces the write-ahead log to disk (it is written on every write; this syncs it). */
  public void syncWal() throws RocksDBException {
    db.syncWal();
  }

  @Override
  public void close() {
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
