package dev.crawler.dedup;

import dev.crawler.dedup.internal.BitBlocks;
import dev.crawler.dedup.internal.FilterFile;
import dev.crawler.dedup.internal.Murmur3;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * A concurrent, blocked Bloom filter of URL fingerprints, sized for billions of keys.
 *
 * <p>All k bits of a key lie in one block: a 64-byte cache line for
 * {@link Layout#CACHE_LINE} (one memory miss per lookup instead of k), or one 4 KB
 * memory page for {@link Layout#PAGE} (one TLB miss, k cache misses that overlap, and a
 * rate within a hair of the standard filter's at equal memory). Blocking raises the
 * rate at equal memory, so {@link BloomFilterSizing} sizes each layout to meet its
 * target.
 *
 * <p>Thread-safe without locks: bits only go from 0 to 1 by atomic read-modify-write.
 * {@link #put} reports whether it set any bit. Two threads putting the same new key at
 * the same moment may both see bits they set; whoever needs "exactly one NEW" (the
 * URL-seen service) serializes per key.
 */
public final class BloomFilter {

  /** How a key's bits are grouped. The id is stored in filter files: never change one. */
  public enum Layout {
    /** k bits in one 512-bit block, one cache line: fastest; about 0.5-1 more bit per key at 1%. */
    CACHE_LINE(1, 512),
    /** k bits in one 32768-bit block, one 4 KB page: one TLB miss; the standard rate at equal memory. */
    PAGE(2, 32768);

    private final int id;
    private final int blockBits;

    Layout(int id, int blockBits) {
      this.id = id;
      this.blockBits = blockBits;
    }

    public int id() {
      return id;
    }

    public int blockBits() {
      return blockBits;
    }

    public static Layout ofId(int id) {
      for (Layout layout : values()) {
        if (layout.id == id) {
          return layout;
        }
      }
      throw new IllegalArgumentException("Unknown Bloom filter layout id " + id);
    }
  }

  /** A multiplier for remixing the hash when k positions need more than 64 bits. */
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private final BitBlocks bits;
  private final Layout layout;
  private final int hashes;
  private final int positionBits;
  private final int positionMask;
  private final int positionsPerWord;
  private final long expectedInsertions;
  private final double targetRate;
  private final LongAdder insertions = new LongAdder();
  private final LongAdder setBits = new LongAdder();
  /** Written when a prefetch's loads sum to {@link #SINK_MATCH}, practically never; see {@link #keepLoads}. */
  @SuppressWarnings("unused")
  private long prefetchSink;
  private static final long SINK_MATCH = 0x9E3779B97F4A7C15L;

  BloomFilter(BitBlocks bits, Layout layout, int hashes, long expectedInsertions, double targetRate,
      long insertions, long setBits) {
    if (hashes < 1 || hashes > 64) {
      throw new IllegalArgumentException("hashes (" + hashes + ") must be between 1 and 64");
    }
    this.bits = bits;
    this.layout = layout;
    this.hashes = hashes;
    this.positionBits = Integer.numberOfTrailingZeros(layout.blockBits());
    this.positionMask = layout.blockBits() - 1;
    this.positionsPerWord = 64 / positionBits;
    this.expectedInsertions = expectedInsertions;
    this.targetRate = targetRate;
    this.insertions.add(insertions);
    this.setBits.add(setBits);
  }

  /**
   * A filter that answers "maybe" for at most a fraction {@code fpp} of absent keys once
   * {@code expectedInsertions} keys are in it.
   */
  public static BloomFilter create(long expectedInsertions, double fpp, Layout layout) {
    checkExpected(expectedInsertions);
    BloomFilterSizing.Choice choice = BloomFilterSizing.forRate(fpp, layout.blockBits());
    long blocks = blocksFor(Math.ceil(expectedInsertions * choice.bitsPerKey()), layout);
    return new BloomFilter(new BitBlocks(blocks, layout.blockBits()), layout, choice.hashes(),
        expectedInsertions, fpp, 0, 0);
  }

  /** A filter of at most {@code bytes}, with the number of hashes that suits {@code expectedInsertions}. */
  public static BloomFilter createWithMemory(long expectedInsertions, long bytes, Layout layout) {
    checkExpected(expectedInsertions);
    long blockBytes = layout.blockBits() / 8;
    if (bytes < blockBytes) {
      throw new IllegalArgumentException("Memory budget (" + bytes + " bytes) must be at least one block ("
          + blockBytes + " bytes)");
    }
    long blocks = bytes / blockBytes;
    double bitsPerKey = (double) blocks * layout.blockBits() / expectedInsertions;
    BloomFilterSizing.Choice choice = BloomFilterSizing.bestHashes(bitsPerKey, layout.blockBits());
    return new BloomFilter(new BitBlocks(blocks, layout.blockBits()), layout, choice.hashes(),
        expectedInsertions, choice.rate(), 0, 0);
  }

  /** The bytes {@link #create} would allocate for these arguments, without allocating them. */
  public static long plannedBytes(long expectedInsertions, double fpp, Layout layout) {
    checkExpected(expectedInsertions);
    BloomFilterSizing.Choice choice = BloomFilterSizing.forRate(fpp, layout.blockBits());
    return blocksFor(Math.ceil(expectedInsertions * choice.bitsPerKey()), layout) * (layout.blockBits() / 8);
  }

  /** The bytes {@link #createWithMemory} would allocate for this budget. */
  public static long plannedBytesWithMemory(long bytes, Layout layout) {
    long blockBytes = layout.blockBits() / 8;
    return bytes / blockBytes * blockBytes;
  }

  private static long blocksFor(double totalBits, Layout layout) {
    return Math.max(1, (long) Math.ceil(totalBits / layout.blockBits()));
  }

  private static void checkExpected(long expectedInsertions) {
    if (expectedInsertions <= 0) {
      throw new IllegalArgumentException("Expected insertions (" + expectedInsertions + ") must be > 0");
    }
  }

  // ------------------------------------------------------------------ the hot path

  /** Adds the key; true if this set any bit (the key was certainly absent before). */
  public boolean put(UrlFingerprint key) {
    return put(key.high(), key.low());
  }

  /** Adds the key given as its two hash halves; true if this set any bit. */
  public boolean put(long high, long low) {
    int newlySet = setMissingBits(high, low);
    if (newlySet == 0) {
      return false;
    }
    insertions.increment();
    setBits.add(newlySet);
    return true;
  }

  /**
   * Sets the key's bits; returns how many this call turned on (0: all were set already). The
   * caller counts them: {@link #put} for its key, {@link #putAll} once a batch, since each count
   * is an atomic add.
   */
  private int setMissingBits(long high, long low) {
    long base = firstWord(high);
    long[] page = bits.pageOf(base);
    int offset = BitBlocks.offsetInPage(base);
    // Pass 1: plain reads of every word. They do not depend on each other, so their
    // cache misses overlap; and a key already present (most keys in a crawl) needs no
    // atomic write at all.
    boolean allSet = true;
    for (int i = 0; i < hashes; i++) {
      int position = position(low, i);
      allSet &= (BitBlocks.word(page, offset + (position >>> 6)) & (1L << position)) != 0;
    }
    // Pass 2, with the words in cache.
    return allSet ? 0 : setBitsInOnePass(page, offset, low);
  }

  /**
   * Sets the bits of a key whose block is at {@code offset} of {@code page} that are not set yet
   * (an atomic write costs several times a cached read, and at capacity about half the bits are
   * set already), counting the ones this call turned on: 0 if another thread set them first.
   * One pass: for a block already read, a first pass of reads has no misses left to overlap.
   */
  private int setBitsInOnePass(long[] page, int offset, long low) {
    int newlySet = 0;
    for (int i = 0; i < hashes; i++) {
      int position = position(low, i);
      int index = offset + (position >>> 6);
      long mask = 1L << position;
      if ((BitBlocks.word(page, index) & mask) == 0 && (BitBlocks.setBits(page, index, mask) & mask) == 0) {
        newlySet++;
      }
    }
    return newlySet;
  }

  /** False if the key was certainly never put; true if it may have been. Never blocks. */
  public boolean mightContain(UrlFingerprint key) {
    return mightContain(key.high(), key.low());
  }

  public boolean mightContain(long high, long low) {
    long base = firstWord(high);
    return mightContain(bits.pageOf(base), BitBlocks.offsetInPage(base), low);
  }

  private boolean mightContain(long[] page, int offset, long low) {
    for (int i = 0; i < hashes; i++) {
      int position = position(low, i);
      if ((BitBlocks.word(page, offset + (position >>> 6)) & (1L << position)) == 0) {
        return false;
      }
    }
    return true;
  }

  // ------------------------------------------------------------------ batches

  /**
   * Reads the memory that {@link #put} and {@link #mightContain} of these keys will read,
   * with loads that do not depend on each other, so that their cache and TLB misses
   * overlap instead of following one another. A dependent random read of a large array
   * costs an order of magnitude more than an independent one (bench MemoryLatency): the
   * filter's speed at billions of keys is in this overlap. Call it on a batch (a page's
   * links), then put or test each key: its lines are then in cache.
   */
  public void prefetch(List<UrlFingerprint> keys) {
    if (layout == Layout.CACHE_LINE) {
      readBlocks(keys);
      return;
    }
    readWords(keys);
  }

  /**
   * The page layout's batch, located as a cache-line batch is (see {@link Blocks}), but bit by bit:
   * a key's k bits are in k different lines of its page. Each key's page, and each of its bits as
   * {@code word << 6 | bit} (the word's offset in the page is under 2^24, so it fits an int), k a
   * key in order. Found before any is read, so that the k·64 reads of a batch run in a loop that
   * does nothing else and overlap, as a cache-line batch's do.
   */
  private record Words(long[][] pages, int[] bitsAt) {}

  /** Works out where every bit of the keys is, then reads their words: in cache afterwards. */
  private Words readWords(List<UrlFingerprint> keys) {
    Words words = locateWords(keys);
    read(words);
    return words;
  }

  private Words locateWords(List<UrlFingerprint> keys) {
    int n = keys.size();
    long[][] pages = new long[n][];
    int[] bitsAt = new int[n * hashes];
    for (int i = 0; i < n; i++) {
      UrlFingerprint key = keys.get(i);
      long base = firstWord(key.high());
      pages[i] = bits.pageOf(base);
      int offset = BitBlocks.offsetInPage(base);
      long low = key.low();
      for (int j = 0; j < hashes; j++) {
        int position = position(low, j);
        bitsAt[i * hashes + j] = ((offset + (position >>> 6)) << 6) | (position & 63);
      }
    }
    return new Words(pages, bitsAt);
  }

  private void read(Words words) {
    long sink = 0;
    int[] bitsAt = words.bitsAt;
    for (int i = 0, j = 0; i < words.pages.length; i++) {
      long[] page = words.pages[i];
      for (int end = j + hashes; j < end; j++) {
        sink += BitBlocks.word(page, bitsAt[j] >>> 6);
      }
    }
    keepLoads(sink);
  }

  /** {@link #setBitsInOnePass(long[], int, long)} for the {@code key}-th key of a read page-layout batch. */
  private int setBitsInOnePass(Words words, int key) {
    long[] page = words.pages[key];
    int newlySet = 0;
    for (int j = key * hashes, end = j + hashes; j < end; j++) {
      int index = words.bitsAt[j] >>> 6;
      long mask = 1L << words.bitsAt[j];
      if ((BitBlocks.word(page, index) & mask) == 0 && (BitBlocks.setBits(page, index, mask) & mask) == 0) {
        newlySet++;
      }
    }
    return newlySet;
  }

  /** {@link #mightContain(long, long)} for the {@code key}-th key of a read page-layout batch. */
  private boolean mightContain(Words words, int key) {
    long[] page = words.pages[key];
    for (int j = key * hashes, end = j + hashes; j < end; j++) {
      if ((BitBlocks.word(page, words.bitsAt[j] >>> 6) & (1L << words.bitsAt[j])) == 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Where each key of a batch has its block, worked out before any block is read. Kept apart
   * from the reads on purpose: a loop that only loads seems to keep more misses in flight than
   * one that also works out addresses (likely because more of its iterations fit in the CPU's
   * reorder window). With this split, batch calls run at about the speed of a bare loop doing
   * the same memory work (bench BatchFloor).
   */
  private record Blocks(long[][] pages, int[] offsets) {}

  /** Works out where the keys' blocks are, then reads them: their lines are in cache afterwards. */
  private Blocks readBlocks(List<UrlFingerprint> keys) {
    Blocks blocks = locate(keys);
    read(blocks);
    return blocks;
  }

  private Blocks locate(List<UrlFingerprint> keys) {
    int n = keys.size();
    long[][] pages = new long[n][];
    int[] offsets = new int[n];
    for (int i = 0; i < n; i++) {
      long base = firstWord(keys.get(i).high());
      pages[i] = bits.pageOf(base);
      offsets[i] = BitBlocks.offsetInPage(base);
    }
    return new Blocks(pages, offsets);
  }

  /** Reads each block's first and last word: a cache-line block may straddle two lines. */
  private void read(Blocks blocks) {
    long[][] pages = blocks.pages;
    int[] offsets = blocks.offsets;
    long sink = 0;
    for (int i = 0; i < pages.length; i++) {
      sink += BitBlocks.word(pages[i], offsets[i]) + BitBlocks.word(pages[i], offsets[i] + 7);
    }
    keepLoads(sink);
  }

  /**
   * Keeps the JIT from dropping a prefetch's loads, whose values nothing else uses: this test
   * reads their sum. The field is written almost never, so threads prefetching at once do not
   * pass its cache line (shared with this filter's fields, read by every call) back and forth.
   */
  private void keepLoads(long sink) {
    if (sink == SINK_MATCH) {
      prefetchSink = sink;
    }
  }

  /** For each key, whether it may have been put; reads the batch's blocks first. */
  public boolean[] mightContainAll(List<UrlFingerprint> keys) {
    boolean[] result = new boolean[keys.size()];
    if (layout == Layout.CACHE_LINE) {
      Blocks blocks = readBlocks(keys);
      for (int i = 0; i < result.length; i++) {
        result[i] = mightContain(blocks.pages[i], blocks.offsets[i], keys.get(i).low());
      }
      return result;
    }
    Words words = readWords(keys);
    for (int i = 0; i < result.length; i++) {
      result[i] = mightContain(words, i);
    }
    return result;
  }

  /** Puts each key; for each, whether it set a bit. Reads the batch's blocks first. */
  public boolean[] putAll(List<UrlFingerprint> keys) {
    Blocks blocks = null;
    Words words = null;
    if (layout == Layout.CACHE_LINE) {
      blocks = readBlocks(keys);
    } else {
      words = readWords(keys);
    }
    boolean[] result = new boolean[keys.size()];
    int inserted = 0;
    long newlySet = 0;
    for (int i = 0; i < result.length; i++) {
      UrlFingerprint key = keys.get(i);
      int set = blocks != null ? setBitsInOnePass(blocks.pages[i], blocks.offsets[i], key.low())
          : setBitsInOnePass(words, i);
      result[i] = set > 0;
      inserted += set > 0 ? 1 : 0;
      newlySet += set;
    }
    if (inserted > 0) {
      insertions.add(inserted);
      setBits.add(newlySet);
    }
    return result;
  }

  /** The key's block, chosen by the high half: (high × blocks) >> 64 spreads it evenly, with no modulo. */
  private long firstWord(long high) {
    return bits.firstWord(Math.unsignedMultiplyHigh(high, bits.blockCount()));
  }

  /**
   * The i-th bit of a key inside its block, from the low half: consecutive fields of
   * log2(block bits) bits (seven 9-bit fields in a 64-bit word for cache-line blocks),
   * and when one word runs out, fields of a remix of it, so the k positions stay
   * independent of each other and of the block choice.
   */
  private int position(long low, int i) {
    if (i < positionsPerWord) {
      // Every position of k <= 7 on cache-line blocks (1% and above): no division, no remix.
      return (int) (low >>> (i * positionBits)) & positionMask;
    }
    int word = i / positionsPerWord;
    long x = Murmur3.fmix64(low + word * GOLDEN);
    return (int) (x >>> ((i - word * positionsPerWord) * positionBits)) & positionMask;
  }

  // ------------------------------------------------------------------ saturation

  /** Keys put that set at least one bit: the keys in the filter, less the rare ones that collided entirely. */
  public long insertions() {
    return insertions.sum();
  }

  /** Fraction of bits set. */
  public double fillRatio() {
    return (double) setBits.sum() / bitSize();
  }

  /**
   * Keys in the filter, estimated from its fill X as n = -(m/k) ln(1 - X). Unlike
   * {@link #insertions()} it counts the keys whose bits were all set already, which at
   * a 10% rate are one key in ten.
   */
  public double estimatedKeys() {
    double fill = fillRatio();
    if (fill >= 1.0) {
      return Double.POSITIVE_INFINITY;
    }
    return -(bitSize() / (double) hashes) * Math.log1p(-fill);
  }

  /** The rate the filter has now, from its estimated keys, by the blocked formula. */
  public double estimatedRate() {
    double n = estimatedKeys();
    if (n == 0) {
      return 0.0;
    }
    return n == Double.POSITIVE_INFINITY ? 1.0
        : Math.min(1.0, BloomFilterSizing.blockedRate(bitSize() / n, hashes, layout.blockBits()));
  }

  /** True once the filter holds the keys it was sized for; its rate rises past the target from here. */
  public boolean isAtCapacity() {
    return estimatedKeys() >= expectedInsertions;
  }

  /** The bits set, counted in the array (O(size)): for tests of the counter behind {@link #fillRatio()}. */
  long countSetBits() {
    return bits.countSetBits();
  }

  public long bitSize() {
    return bits.wordCount() * 64;
  }

  public long byteSize() {
    return bits.wordCount() * 8;
  }

  public int hashes() {
    return hashes;
  }

  public Layout layout() {
    return layout;
  }

  public long expectedInsertions() {
    return expectedInsertions;
  }

  /** The rate the filter was sized for at {@link #expectedInsertions()}. */
  public double targetRate() {
    return targetRate;
  }

  // ------------------------------------------------------------------ persistence

  /** Writes the filter to {@code file} atomically (a temporary file renamed over it, after fsync). */
  public void writeTo(Path file) throws IOException {
    FilterFile.write(file, new FilterFile.Header(layout.id(), FilterFile.HASH_MURMUR3_128_UTF16, hashes,
        bits.blockCount(), insertions(), setBits.sum(), expectedInsertions, targetRate), bits);
  }

  /**
   * Reads a filter written by {@link #writeTo}.
   *
   * @throws FilterFile.CorruptFilterException if the file is damaged, truncated or of another format
   */
  public static BloomFilter readFrom(Path file) throws IOException {
    FilterFile.Contents contents = FilterFile.read(file);
    FilterFile.Header h = contents.header();
    return new BloomFilter(contents.bits(), Layout.ofId(h.layoutId()), h.hashes(), h.expectedInsertions(),
        h.targetRate(), h.insertions(), h.setBits());
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "BloomFilter[%s, %,d bytes, k=%d, %,d of %,d keys, fill %.1f%%, est. rate %.5f%%]",
        layout, byteSize(), hashes, insertions(), expectedInsertions, fillRatio() * 100, estimatedRate() * 100);
  }
}
