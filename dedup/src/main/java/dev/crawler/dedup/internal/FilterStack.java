package dev.crawler.dedup.internal;

import dev.crawler.dedup.BloomFilter;
import dev.crawler.dedup.UrlFingerprint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Bloom filter, or several stacked when the crawl outgrows the first (the scalable
 * Bloom filter of Almeida et al., as Redis does it). Filter i is twice the size of
 * filter i-1 with half its target rate, so with the first at p/2 the compound rate
 * stays under p however many are added: p/2 + p/4 + ... &lt; p.
 *
 * <p>A key is in the stack if any filter may hold it; new keys go to the newest.
 * Growing swaps in a new array under a lock; readers see the old or the new array,
 * both correct, since no filter is ever removed.
 */
public final class FilterStack {
  /** Each added filter's rate, as a fraction of the one before. */
  public static final double TIGHTENING = 0.5;
  /** Each added filter's capacity, as a multiple of the one before. */
  public static final int GROWTH = 2;
  private static final Pattern FILE_NAME = Pattern.compile("filter-(\\d+)\\.bloom");

  private volatile BloomFilter[] filters;

  public FilterStack(BloomFilter first) {
    this.filters = new BloomFilter[] {first};
  }

  private FilterStack(BloomFilter[] filters) {
    this.filters = filters;
  }

  /** Adds the key; true if it was certainly absent from every filter. */
  public boolean put(UrlFingerprint fp) {
    BloomFilter[] current = filters;
    for (int i = 0; i < current.length - 1; i++) {
      if (current[i].mightContain(fp)) {
        return false;
      }
    }
    return current[current.length - 1].put(fp);
  }

  /** Brings the memory of these keys into cache with overlapping loads (see {@link BloomFilter#prefetch}). */
  public void prefetch(List<UrlFingerprint> keys) {
    for (BloomFilter filter : filters) {
      filter.prefetch(keys);
    }
  }

  public boolean mightContain(UrlFingerprint fp) {
    for (BloomFilter filter : filters) {
      if (filter.mightContain(fp)) {
        return true;
      }
    }
    return false;
  }

  public BloomFilter newest() {
    BloomFilter[] current = filters;
    return current[current.length - 1];
  }

  /** Adds a filter of twice the newest one's capacity and half its rate; returns it. */
  public synchronized BloomFilter grow() {
    BloomFilter newest = newest();
    BloomFilter added = BloomFilter.create(newest.expectedInsertions() * GROWTH,
        newest.targetRate() * TIGHTENING, newest.layout());
    BloomFilter[] grown = Arrays.copyOf(filters, filters.length + 1);
    grown[grown.length - 1] = added;
    filters = grown;
    return added;
  }

  public List<BloomFilter> filters() {
    return List.of(filters);
  }

  /** The chance that an absent key passes any of the filters: 1 - Π(1 - p_i). */
  public double estimatedRate() {
    double allMiss = 1.0;
    for (BloomFilter filter : filters) {
      allMiss *= 1.0 - filter.estimatedRate();
    }
    return 1.0 - allMiss;
  }

  public long byteSize() {
    long bytes = 0;
    for (BloomFilter filter : filters) {
      bytes += filter.byteSize();
    }
    return bytes;
  }

  /** Keys the filters hold (each filter's {@link BloomFilter#insertions()}), summed. */
  public long keys() {
    long keys = 0;
    for (BloomFilter filter : filters) {
      keys += filter.insertions();
    }
    return keys;
  }

  /** Keys the filters were sized for, summed: what the stack holds before its newest one is full. */
  public long capacity() {
    long capacity = 0;
    for (BloomFilter filter : filters) {
      capacity += filter.expectedInsertions();
    }
    return capacity;
  }

  /** Bits set over bits in all, across the filters. */
  public double fillRatio() {
    double set = 0;
    double all = 0;
    for (BloomFilter filter : filters) {
      set += filter.fillRatio() * filter.bitSize();
      all += filter.bitSize();
    }
    return set / all;
  }

  /** Writes filter-0.bloom, filter-1.bloom, ... and removes files of filters beyond them. */
  public void writeTo(Path directory) throws IOException {
    BloomFilter[] current = filters;
    for (int i = 0; i < current.length; i++) {
      current[i].writeTo(directory.resolve("filter-" + i + ".bloom"));
    }
    for (Path stale : files(directory)) {
      if (index(stale) >= current.length) {
        Files.delete(stale);
      }
    }
  }

  /**
   * What the stack's files hold, in a few bytes: per filter its size, hashes and insertions. The
   * store keeps the signature of the stack it saved ({@link FingerprintStore#setFilterSaved}), and
   * a stack read back with another one is not the one saved: a file missing at the end (the file
   * names alone still number 0 to n-1), or an older copy of one put back. Loaded as complete, such
   * a stack answered NEW for URLs it had answered NEW before.
   */
  public byte[] signature() {
    BloomFilter[] current = filters;
    ByteBuffer signature = ByteBuffer.allocate(1 + 4 + current.length * (8 + 4 + 8));
    signature.put(SIGNATURE_VERSION).putInt(current.length);
    for (BloomFilter filter : current) {
      signature.putLong(filter.bitSize()).putInt(filter.hashes()).putLong(filter.insertions());
    }
    return signature.array();
  }

  private static final byte SIGNATURE_VERSION = 1;

  /** Reads the stack written by {@link #writeTo}; null when there is none. */
  public static FilterStack readFrom(Path directory) throws IOException {
    List<Path> files = files(directory);
    if (files.isEmpty()) {
      return null;
    }
    BloomFilter[] loaded = new BloomFilter[files.size()];
    for (Path file : files) {
      int i = index(file);
      if (i >= loaded.length) {
        throw new FilterFile.CorruptFilterException(file, "filter files are not numbered 0 to " + (loaded.length - 1));
      }
      loaded[i] = BloomFilter.readFrom(file);
    }
    return new FilterStack(loaded);
  }

  /** Deletes every filter file in {@code directory}. */
  public static void deleteFiles(Path directory) throws IOException {
    for (Path file : files(directory)) {
      Files.delete(file);
    }
    if (Files.isDirectory(directory)) {
      // Left by a save a kill or a full disk cut short.
      try (DirectoryStream<Path> temps = Files.newDirectoryStream(directory, "filter-*.bloom.tmp")) {
        for (Path temp : temps) {
          Files.delete(temp);
        }
      }
    }
  }

  private static List<Path> files(Path directory) throws IOException {
    List<Path> files = new ArrayList<>();
    if (!Files.isDirectory(directory)) {
      return files;
    }
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, "filter-*.bloom")) {
      for (Path file : stream) {
        if (FILE_NAME.matcher(file.getFileName().toString()).matches()) {
          files.add(file);
        }
      }
    }
    return files;
  }

  private static int index(Path file) {
    Matcher m = FILE_NAME.matcher(file.getFileName().toString());
    if (!m.matches()) {
      throw new IllegalArgumentException(file + " is not a filter file");
    }
    return Integer.parseInt(m.group(1));
  }
}
