package dev.crawler.dedup.internal;

import dev.crawler.dedup.UrlFingerprint;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A small, lossy memory of fingerprints known to be in the exact store, so that the
 * links every page repeats (navigation, footers) are answered SEEN without a disk read.
 * Direct-mapped: the high half picks a slot, the slot keeps the low half, a newer
 * fingerprint overwrites an older one. A wrong hit needs another fingerprint with the
 * same slot and the same 64-bit low half: odds of about 2^-64 per lookup.
 */
public final class RecentFingerprints {
  /** The largest power of two an int holds: rounding a larger capacity up would overflow. 8 GB of slots. */
  public static final int MAX_CAPACITY = 1 << 30;

  private final AtomicLongArray slots;
  private final int shift;

  /** {@code capacity} is rounded up to a power of two; 8 bytes each. */
  public RecentFingerprints(int capacity) {
    if (capacity < 1 || capacity > MAX_CAPACITY) {
      throw new IllegalArgumentException("capacity (" + capacity + ") must be from 1 to " + MAX_CAPACITY);
    }
    int size = slotsFor(capacity);
    this.slots = new AtomicLongArray(size);
    this.shift = 64 - Integer.numberOfTrailingZeros(size);
  }

  /** The heap {@code new RecentFingerprints(capacity)} takes for its slots. */
  public static long bytesFor(int capacity) {
    return (long) slotsFor(capacity) * Long.BYTES;
  }

  private static int slotsFor(int capacity) {
    return Integer.highestOneBit(Math.max(1, capacity - 1)) << 1;
  }

  public boolean contains(UrlFingerprint fp) {
    // Zero marks an empty slot; a fingerprint whose low half is zero is never remembered.
    return fp.low() != 0 && slots.getOpaque(slot(fp)) == fp.low();
  }

  public void add(UrlFingerprint fp) {
    slots.setOpaque(slot(fp), fp.low());
  }

  private int slot(UrlFingerprint fp) {
    return shift == 64 ? 0 : (int) (fp.high() >>> shift);
  }

  public long byteSize() {
    return 8L * slots.length();
  }
}
