package dev.crawler.rocks;

import java.nio.charset.StandardCharsets;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/**
 * The child process of {@link RocksLibraryProcessTest}: opens a RocksDB store in the folder
 * {@code args[0]}, writes a key, prints {@code open} and waits to be killed. With
 * {@code args[1]} = {@code rocksdb-loader} it lets RocksDB load its library its own way.
 */
final class OpenStoreAndWait {
  private OpenStoreAndWait() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 1 && args[1].equals("rocksdb-loader")) {
      RocksDB.loadLibrary();
    } else {
      RocksLibrary.load();
    }
    try (Options options = new Options().setCreateIfMissing(true);
        RocksDB db = RocksDB.open(options, args[0])) {
      db.put("key".getBytes(StandardCharsets.UTF_8), "value".getBytes(StandardCharsets.UTF_8));
      System.out.println("open " + RocksLibrary.loadedFrom().map(Object::toString).orElse("(RocksDB's loader)"));
      System.out.flush();
      Thread.sleep(Long.MAX_VALUE);
    }
  }
}
