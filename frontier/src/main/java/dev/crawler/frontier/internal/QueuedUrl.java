package dev.crawler.frontier.internal;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;

import java.nio.charset.StandardCharsets;

/**
 * One URL waiting in its host's queue: an entry of the {@code queue} column family.
 *
 * <p>Key, big-endian, so that one host's queue is one contiguous key range ordered by
 * priority, then by acceptance:
 * <pre>
 *   offset  size  field
 *        0     1  layout version (1)
 *        1     2  partition, unsigned
 *        3     n  host key, UTF-8 (never contains 0x00)
 *      3+n     1  0x00: ends the host key, so "a.com" never shares a range with "a.com.evil"
 *      4+n     1  lane = 127 - priority: a higher priority sorts first within the host
 *      5+n     8  sequence number: the store's order of acceptance, unique, never reused
 * </pre>
 * Value, version 2:
 * <pre>
 *        0     1  layout version (2)
 *        1     2  depth, unsigned
 *        3     1  redirect hops, unsigned
 *        4     2  via length v in bytes, unsigned; 0 = no via (null; an empty via means the same)
 *        6     v  via, UTF-8, at most {@link #MAX_VIA_BYTES}: a longer one is cut at a character
 *                 boundary when written, since it is only for the log
 *      6+v     .  URL, UTF-8 (the rest of the value: its length is not stored)
 * </pre>
 * Value, version 1, written before vias and hops were kept; still read (via null, hops 0),
 * since stores of running crawls hold them, never written:
 * <pre>
 *        0     1  layout version (1)
 *        1     2  depth, unsigned
 *        3     .  URL, UTF-8
 * </pre>
 * A key is written once and removed once, so removal is a {@code SingleDelete}: the
 * tombstone and the value cancel out in the next compaction that sees both, instead of the
 * tombstone travelling to the last level as a plain delete's does.
 *
 * @param key the stored key
 * @param url the URL
 * @param depth links followed from a seed to reach it
 * @param redirectHops redirects followed to reach it
 * @param via the page it was found on, null for none
 */
public record QueuedUrl(byte[] key, String url, int depth, int redirectHops, String via) {
  public static final int KEY_VERSION = 1;
  /** The version written. */
  public static final int VALUE_VERSION = 2;
  /** The version before vias and hops; read, never written. */
  public static final int VALUE_VERSION_1 = 1;
  public static final int MAX_VIA_BYTES = 2_048;
  public static final int MAX_REDIRECT_HOPS = 0xFF;
  public static final int MIN_PRIORITY = -128;
  public static final int MAX_PRIORITY = 127;
  public static final int MAX_DEPTH = 0xFFFF;
  private static final int TAIL = 1 + 1 + 8;   // separator, lane, sequence
  private static final byte[] NO_BYTES = new byte[0];

  public static byte[] key(int partition, byte[] hostKeyUtf8, int priority, long seq) {
    checkArgument(priority >= MIN_PRIORITY && priority <= MAX_PRIORITY, "priority (%s) must be in [%s, %s]",
        priority, MIN_PRIORITY, MAX_PRIORITY);
    byte[] k = new byte[3 + hostKeyUtf8.length + TAIL];
    k[0] = KEY_VERSION;
    Bytes.putU16(k, 1, partition);
    System.arraycopy(hostKeyUtf8, 0, k, 3, hostKeyUtf8.length);
    int at = 3 + hostKeyUtf8.length;
    k[at] = 0;
    k[at + 1] = (byte) (MAX_PRIORITY - priority);
    Bytes.putI64(k, at + 2, seq);
    return k;
  }

  public static byte[] value(String url, int depth, int redirectHops, String via) {
    checkArgument(depth >= 0 && depth <= MAX_DEPTH, "depth (%s) must be in [0, %s]", depth, MAX_DEPTH);
    checkArgument(redirectHops >= 0 && redirectHops <= MAX_REDIRECT_HOPS, "redirectHops (%s) must be in [0, %s]",
        redirectHops, MAX_REDIRECT_HOPS);
    byte[] u = url.getBytes(StandardCharsets.UTF_8);
    byte[] w = via == null ? NO_BYTES : via.getBytes(StandardCharsets.UTF_8);
    int viaLength = cutLength(w, MAX_VIA_BYTES);
    byte[] v = new byte[6 + viaLength + u.length];
    v[0] = VALUE_VERSION;
    Bytes.putU16(v, 1, depth);
    v[3] = (byte) redirectHops;
    Bytes.putU16(v, 4, viaLength);
    System.arraycopy(w, 0, v, 6, viaLength);
    System.arraycopy(u, 0, v, 6 + viaLength, u.length);
    return v;
  }

  /**
   * The length of the longest prefix of {@code utf8} that has at most {@code max} bytes and
   * ends on a character boundary: a cut never leaves half a character (a byte 10xxxxxx
   * continues a character, so the cut moves back to the byte that starts it).
   */
  static int cutLength(byte[] utf8, int max) {
    if (utf8.length <= max) {
      return utf8.length;
    }
    int n = max;
    while (n > 0 && (utf8[n] & 0xC0) == 0x80) {
      n--;
    }
    return n;
  }

  /** The first key of a host's queue; every key of the host is at or after it. */
  public static byte[] hostStart(int partition, byte[] hostKeyUtf8) {
    byte[] k = new byte[3 + hostKeyUtf8.length + 1];
    k[0] = KEY_VERSION;
    Bytes.putU16(k, 1, partition);
    System.arraycopy(hostKeyUtf8, 0, k, 3, hostKeyUtf8.length);
    k[k.length - 1] = 0;
    return k;
  }

  /** The first key after a host's queue (exclusive upper bound of its range). */
  public static byte[] hostEnd(int partition, byte[] hostKeyUtf8) {
    byte[] k = hostStart(partition, hostKeyUtf8);
    k[k.length - 1] = 1;
    return k;
  }

  public static QueuedUrl decode(byte[] key, byte[] value) {
    checkState(key[0] == KEY_VERSION, "queue key version (%s) is not %s: written by another frontier version",
        key[0], KEY_VERSION);
    if (value[0] == VALUE_VERSION) {
      int viaLength = Bytes.getU16(value, 4);
      String via = viaLength == 0 ? null : new String(value, 6, viaLength, StandardCharsets.UTF_8);
      int at = 6 + viaLength;
      return new QueuedUrl(key, new String(value, at, value.length - at, StandardCharsets.UTF_8),
          Bytes.getU16(value, 1), value[3] & 0xFF, via);
    }
    checkState(value[0] == VALUE_VERSION_1,
        "queue value version (%s) is not %s or %s: written by another frontier version", value[0], VALUE_VERSION_1,
        VALUE_VERSION);
    return new QueuedUrl(key, new String(value, 3, value.length - 3, StandardCharsets.UTF_8),
        Bytes.getU16(value, 1), 0, null);
  }

  /** Estimated heap bytes: this record, its key, its strings (one byte a character) and a reference to it. */
  long heapBytes() {
    return 136 + key.length + url.length() + (via == null ? 0 : 40 + via.length());
  }

  public int priority() {
    return MAX_PRIORITY - (key[key.length - 9] & 0xFF);
  }

  public long seq() {
    return Bytes.getI64(key, key.length - 8);
  }

  public int partition() {
    return Bytes.getU16(key, 1);
  }

  public String hostKey() {
    return new String(key, 3, key.length - 3 - TAIL, StandardCharsets.UTF_8);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QueuedUrl q && java.util.Arrays.equals(key, q.key) && url.equals(q.url) && depth == q.depth
        && redirectHops == q.redirectHops && java.util.Objects.equals(via, q.via);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(key) * 31 + url.hashCode();
  }

  @Override
  public String toString() {
    return "QueuedUrl[" + url + " depth " + depth + " hops " + redirectHops + " via " + via + " key " + Bytes.hex(key)
        + "]";
  }
}
