package dev.crawler.frontier.internal;

import java.util.Arrays;

/**
 * Big-endian reads and writes for the stored layouts. Big-endian, because RocksDB orders
 * keys by unsigned bytes and only then does byte order equal numeric order.
 */
final class Bytes {
  private Bytes() {}

  static void putU16(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 8);
    b[at + 1] = (byte) v;
  }

  static int getU16(byte[] b, int at) {
    return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
  }

  static void putI32(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 24);
    b[at + 1] = (byte) (v >>> 16);
    b[at + 2] = (byte) (v >>> 8);
    b[at + 3] = (byte) v;
  }

  static int getI32(byte[] b, int at) {
    return ((b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
  }

  static void putI64(byte[] b, int at, long v) {
    for (int i = 7; i >= 0; i--) {
      b[at + i] = (byte) v;
      v >>>= 8;
    }
  }

  static long getI64(byte[] b, int at) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[at + i] & 0xFF);
    }
    return v;
  }

  /** The smallest key that sorts after {@code key}: the key with a 0x00 byte appended. */
  static byte[] successor(byte[] key) {
    return Arrays.copyOf(key, key.length + 1);
  }

  static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  static String hex(byte[] b) {
    return java.util.HexFormat.of().formatHex(b);
  }
}
