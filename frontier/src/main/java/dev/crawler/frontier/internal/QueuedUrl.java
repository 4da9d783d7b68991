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
 * Value:
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
 */
public record QueuedUrl(byte[] key, String url, int depth) {
  public static final int KEY_VERSION = 1;
  public static final int VALUE_VERSION = 1;
  public static final int MIN_PRIORITY = -128;
  public static final int MAX_PRIORITY = 127;
  public static final int MAX_DEPTH = 0xFFFF;
  private static final int TAIL = 1 + 1 + 8;   // separator, lane, sequence

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

  public static byte[] value(String url, int depth) {
    checkArgument(depth >= 0 && depth <= MAX_DEPTH, "depth (%s) must be in [0, %s]", depth, MAX_DEPTH);
    byte[] u = url.getBytes(StandardCharsets.UTF_8);
    byte[] v = new byte[3 + u.length];
    v[0] = VALUE_VERSION;
    Bytes.putU16(v, 1, depth);
    System.arraycopy(u, 0, v, 3, u.length);
    return v;
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
    checkState(value[0] == VALUE_VERSION, "queue value version (%s) is not %s: written by another frontier version",
        value[0], VALUE_VERSION);
    return new QueuedUrl(key, new String(value, 3, value.length - 3, StandardCharsets.UTF_8),
        Bytes.getU16(value, 1));
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
    return o instanceof QueuedUrl q && java.util.Arrays.equals(key, q.key) && url.equals(q.url) && depth == q.depth;
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(key) * 31 + url.hashCode();
  }

  @Override
  public String toString() {
    return "QueuedUrl[" + url + " depth " + depth + " key " + Bytes.hex(key) + "]";
  }
}
