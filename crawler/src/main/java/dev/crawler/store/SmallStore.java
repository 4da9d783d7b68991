package dev.crawler.store;

import dev.crawler.rocks.RocksLibrary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rocksdb.CompressionType;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * A RocksDB in a folder of the crawl for a small keyed record beside the big stores: robots.txt
 * answers by host, queue keys by host. One set of options for them: a small write buffer, one
 * background job, LZ4 (their values are text). Writes go through the write-ahead log without
 * fsync, so they survive a killed process. What a failure means is its owner's to say.
 */
public final class SmallStore implements AutoCloseable {
  static {
    RocksLibrary.load();
  }

  private final Options options;
  private final WriteOptions writeOptions = new WriteOptions();
  private final RocksDB db;

  private SmallStore(Options options, RocksDB db) {
    this.options = options;
    this.db = db;
  }

  /**
   * Opens the store in {@code directory}, creating it if missing.
   *
   * @param what what it holds, for the error ("the robots.txt store")
   * @throws IOException if it cannot be opened, with RocksDB's exception as its cause (a full
   *     disk, a held lock, damage)
   */
  public static SmallStore open(Path directory, String what) throws IOException {
    Files.createDirectories(directory);
    Options options = new Options().setCreateIfMissing(true)
        .setCompressionType(CompressionType.LZ4_COMPRESSION)   // robots.txt files are text: about 4x
        .setWriteBufferSize(8L << 20)
        .setMaxOpenFiles(64)
        .setKeepLogFileNum(2)
        .setMaxBackgroundJobs(1);
    try {
      return new SmallStore(options, RocksDB.open(options, directory.toString()));
    } catch (RocksDBException e) {
      options.close();
      throw new IOException("Cannot open " + what + " in " + directory + ": " + e.getMessage(), e);
    }
  }

  /** The value kept under {@code key}, or null. */
  public byte[] get(byte[] key) throws RocksDBException {
    return db.get(key);
  }

  public void put(byte[] key, byte[] value) throws RocksDBException {
    db.put(writeOptions, key, value);
  }

  @Override
  public void close() {
    db.close();
    writeOptions.close();
    options.close();
  }
}
