package dev.crawler.dedup;

import dev.crawler.dedup.internal.Murmur3;
import java.util.Locale;

/**
 * A 128-bit hash of a normalized URL: what the Bloom filter and the exact store keep
 * instead of the URL. Two URLs share a fingerprint with probability about 2^-128 per
 * pair, so at 10^10 URLs a collision (which would wrongly skip one page) has odds of
 * about 10^-19.
 *
 * <p>The hash is MurmurHash3 x64-128 over the URL's UTF-16 code units, the same value
 * as Guava's {@code Hashing.murmur3_128().hashUnencodedChars(url)}, computed here
 * without allocating (see {@link Murmur3} for why it is not Guava's own call).
 */
public record UrlFingerprint(long high, long low) {

  public static UrlFingerprint of(CharSequence url) {
    return Murmur3.hash128(url);
  }

  /** The 16 bytes of the fingerprint, high half first, big-endian: the exact store's key. */
  public byte[] toBytes() {
    byte[] bytes = new byte[16];
    for (int i = 0; i < 8; i++) {
      bytes[i] = (byte) (high >>> (56 - 8 * i));
      bytes[8 + i] = (byte) (low >>> (56 - 8 * i));
    }
    return bytes;
  }

  public static UrlFingerprint fromBytes(byte[] bytes) {
    if (bytes.length != 16) {
      throw new IllegalArgumentException("A fingerprint has 16 bytes, not " + bytes.length);
    }
    long high = 0;
    long low = 0;
    for (int i = 0; i < 8; i++) {
      high = (high << 8) | (bytes[i] & 0xFF);
      low = (low << 8) | (bytes[8 + i] & 0xFF);
    }
    return new UrlFingerprint(high, low);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%016x%016x", high, low);
  }
}
