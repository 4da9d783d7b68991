package dev.crawler.dedup.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The bits of a blocked Bloom filter: {@code blockCount} blocks of {@code blockBits}
 * bits, stored in pages of {@code long}s so that the filter can exceed the 2^31
 * elements of one Java array (5 billion URLs at 1% is about 6 GB). Every index here is
 * a {@code long}; only the offset inside one page is an {@code int}.
 *
 * <p>Bits only ever go from 0 to 1, with atomic read-modify-writes, so readers need no
 * lock: a bit seen set stays set.
 */
public final class BitBlocks {
  /** 2^24 longs = 128 MB per page: big enough to be few, small enough to allocate in a fragmented heap. */
  static final int PAGE_SHIFT = 24;
  private static final int PAGE_MASK = (1 << PAGE_SHIFT) - 1;
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

  private final long[][] pages;
  private final long blockCount;
  private final int wordsPerBlockShift;

  public BitBlocks(long blockCount, int blockBits) {
    if (blockCount <= 0) {
      throw new IllegalArgumentException("blockCount (" + blockCount + ") must be > 0");
    }
    if (Integer.bitCount(blockBits) != 1 || blockBits < 64 || blockBits > (1 << PAGE_SHIFT) * 64) {
      throw new IllegalArgumentException("blockBits (" + blockBits + ") must be a power of two from 64");
    }
    this.blockCount = blockCount;
    this.wordsPerBlockShift = Integer.numberOfTrailingZeros(blockBits / 64);
    long words = Math.multiplyExact(blockCount, 1L << wordsPerBlockShift);
    int pageCount = Math.toIntExact((words + PAGE_MASK) >>> PAGE_SHIFT);
    this.pages = new long[pageCount][];
    for (int i = 0; i < pageCount; i++) {
      long remaining = words - ((long) i << PAGE_SHIFT);
      pages[i] = new long[(int) Math.min(remaining, 1L << PAGE_SHIFT)];
    }
  }

  public long blockCount() {
    return blockCount;
  }

  /** Total words (longs) in the array. */
  public long wordCount() {
    return blockCount << wordsPerBlockShift;
  }

  /** Index of the first word of {@code block}; blocks never straddle pages (pages hold whole blocks). */
  public long firstWord(long block) {
    return block << wordsPerBlockShift;
  }

  /**
   * The page holding word {@code index}. A block never straddles pages, so a key's reads take
   * its block's page once and index it with {@link #offsetInPage} and the static
   * {@link #word(long[], int)}: one page lookup and bounds check a key instead of one a bit.
   */
  public long[] pageOf(long index) {
    return pages[(int) (index >>> PAGE_SHIFT)];
  }

  /** Where word {@code index} is in {@link #pageOf its page}. */
  public static int offsetInPage(long index) {
    return (int) (index & PAGE_MASK);
  }

  /** The word at {@code offset} of {@code page}, a plain read: may miss a concurrent set, never invents one. */
  public static long word(long[] page, int offset) {
    return (long) LONGS.getOpaque(page, offset);
  }

  /** Sets {@code mask}'s bits in the word at {@code offset} of {@code page} atomically; returns the word as it was. */
  public static long setBits(long[] page, int offset, long mask) {
    return (long) LONGS.getAndBitwiseOr(page, offset, mask);
  }

  /** The page holding {@code index}, for bulk copy to and from files. */
  long[] page(int pageIndex) {
    return pages[pageIndex];
  }

  int pageCount() {
    return pages.length;
  }

  /** Number of set bits, counted word by word (for verification after loading; O(size)). */
  public long countSetBits() {
    long count = 0;
    for (long[] page : pages) {
      for (long word : page) {
        count += Long.bitCount(word);
      }
    }
    return count;
  }
}
