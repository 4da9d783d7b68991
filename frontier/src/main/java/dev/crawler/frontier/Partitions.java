package dev.crawler.frontier;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.hash.Hashing;
import dev.crawler.frontier.internal.HostKeys;

/**
 * The crawl's partition function: which of P partitions a queue key (host, domain or address)
 * belongs to. The frontier puts it first in every stored key, and a cluster routes a URL to the
 * node that owns it by the same function, so a topic's partition p is the frontier's partition p.
 *
 * <p>{@code partition = murmur3_32(UTF-8 queue key) mod P}, as a non-negative remainder. Stores on
 * disk depend on it, so it must never change: {@code StoredLayoutTest} pins it on fixed keys.
 * Guava's {@code murmur3_32_fixed} is used because the older {@code murmur3_32} hashed some
 * non-BMP strings wrongly and is kept only for compatibility.
 */
public final class Partitions {
  private Partitions() {}

  /** Partitions are stored as an unsigned 16-bit number. */
  public static final int MAX = 1 << 16;

  /**
   * The partition of a queue key, in [0, partitions).
   *
   * @throws IllegalArgumentException if {@code partitions} is not in [1, {@link #MAX}], or the key
   *     is not one the frontier can store (empty, a NUL, an unpaired surrogate, too long)
   */
  public static int of(String queueKey, int partitions) {
    return ofUtf8(HostKeys.utf8(queueKey), partitions);
  }

  /** The partition of a queue key given as its UTF-8 bytes, already checked by {@link HostKeys#utf8}. */
  public static int ofUtf8(byte[] queueKeyUtf8, int partitions) {
    checkArgument(partitions >= 1 && partitions <= MAX, "partitions (%s) must be in [1, %s]", partitions, MAX);
    if (partitions == 1) {
      return 0;
    }
    return Math.floorMod(Hashing.murmur3_32_fixed().hashBytes(queueKeyUtf8).asInt(), partitions);
  }
}
