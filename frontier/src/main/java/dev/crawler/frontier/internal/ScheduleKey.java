package dev.crawler.frontier.internal;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;

import java.nio.charset.StandardCharsets;

/**
 * A host's place in the schedule: a key of the {@code schedule} column family, which
 * holds exactly one entry for every active host (one with queued URLs), ordered by the time
 * the host may next be fetched. Rescheduling a host is a delete of its old key and a put of
 * its new one in the same write batch.
 *
 * <p>Key, big-endian:
 * <pre>
 *   offset  size  field
 *        0     1  layout version (1)
 *        1     2  partition, unsigned
 *        3     8  next allowed fetch, epoch millis (never negative)
 *       11     n  host key, UTF-8
 * </pre>
 * Value: {@code [version 1]}; the key says it all.
 */
public final class ScheduleKey {
  private ScheduleKey() {}

  public static final int KEY_VERSION = 1;
  public static final int VALUE_VERSION = 1;
  static final byte[] VALUE = {VALUE_VERSION};

  public static byte[] encode(int partition, long nextAllowedMillis, byte[] hostKeyUtf8) {
    checkArgument(nextAllowedMillis >= 0, "nextAllowedMillis (%s) must be >= 0", nextAllowedMillis);
    byte[] k = new byte[11 + hostKeyUtf8.length];
    k[0] = KEY_VERSION;
    Bytes.putU16(k, 1, partition);
    Bytes.putI64(k, 3, nextAllowedMillis);
    System.arraycopy(hostKeyUtf8, 0, k, 11, hostKeyUtf8.length);
    return k;
  }

  /** The first schedule key of a partition. */
  public static byte[] partitionStart(int partition) {
    byte[] k = new byte[3];
    k[0] = KEY_VERSION;
    Bytes.putU16(k, 1, partition);
    return k;
  }

  /** The first key after a partition's schedule (exclusive). */
  public static byte[] partitionEnd(int partition) {
    byte[] k = new byte[11];
    k[0] = KEY_VERSION;
    Bytes.putU16(k, 1, partition);
    Bytes.putI64(k, 3, -1L);   // 0xFF..FF: above every non-negative time
    return k;
  }

  public static void checkVersion(byte[] key) {
    checkState(key[0] == KEY_VERSION, "schedule key version (%s) is not %s: written by another frontier version",
        key[0], KEY_VERSION);
  }

  public static int partition(byte[] key) {
    return Bytes.getU16(key, 1);
  }

  public static long nextAllowedMillis(byte[] key) {
    return Bytes.getI64(key, 3);
  }

  public static byte[] hostKeyUtf8(byte[] key) {
    return java.util.Arrays.copyOfRange(key, 11, key.length);
  }

  public static String hostKey(byte[] key) {
    return new String(key, 11, key.length - 11, StandardCharsets.UTF_8);
  }
}
