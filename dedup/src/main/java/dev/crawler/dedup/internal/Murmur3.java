package dev.crawler.dedup.internal;

import dev.crawler.dedup.UrlFingerprint;

/**
 * MurmurHash3 x64-128 (Austin Appleby's public-domain algorithm) over the UTF-16 code
 * units of a string, little-endian, seed 0: equal to Guava's
 * {@code Hashing.murmur3_128().hashUnencodedChars(s)}, which a test pins.
 *
 * <p>Why not call Guava: its hasher allocates a Hasher, a buffer and a HashCode per call
 * and goes through a byte stream; this reads the chars straight into the two 64-bit
 * lanes, and allocates only the fingerprint (bench UrlHashBenchmark sets it beside Guava
 * and OpenHFT's xxHash128).
 */
public final class Murmur3 {
  private Murmur3() {}

  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  public static UrlFingerprint hash128(CharSequence s) {
    long h1 = 0;
    long h2 = 0;
    int length = s.length();
    int i = 0;
    // 16-byte blocks: eight chars, four per lane.
    for (; i + 8 <= length; i += 8) {
      long k1 = s.charAt(i) | (long) s.charAt(i + 1) << 16 | (long) s.charAt(i + 2) << 32
          | (long) s.charAt(i + 3) << 48;
      long k2 = s.charAt(i + 4) | (long) s.charAt(i + 5) << 16 | (long) s.charAt(i + 6) << 32
          | (long) s.charAt(i + 7) << 48;
      h1 ^= mixK1(k1);
      h1 = Long.rotateLeft(h1, 27);
      h1 += h2;
      h1 = h1 * 5 + 0x52dce729;
      h2 ^= mixK2(k2);
      h2 = Long.rotateLeft(h2, 31);
      h2 += h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    // Tail: up to seven chars, the first four in k1, the rest in k2.
    int remaining = length - i;
    if (remaining > 0) {
      long k1 = 0;
      long k2 = 0;
      for (int j = 0; j < remaining; j++) {
        long c = s.charAt(i + j);
        if (j < 4) {
          k1 |= c << (16 * j);
        } else {
          k2 |= c << (16 * (j - 4));
        }
      }
      h1 ^= mixK1(k1);
      h2 ^= mixK2(k2);
    }
    long bytes = 2L * length;
    h1 ^= bytes;
    h2 ^= bytes;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    return new UrlFingerprint(h1, h2);
  }

  private static long mixK1(long k1) {
    k1 *= C1;
    k1 = Long.rotateLeft(k1, 31);
    return k1 * C2;
  }

  private static long mixK2(long k2) {
    k2 *= C2;
    k2 = Long.rotateLeft(k2, 33);
    return k2 * C1;
  }

  public static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
