package dev.crawler.frontier.internal;

import static com.google.common.base.Preconditions.checkState;

/**
 * The counts of one partition, kept exact across restarts by writing them in the same
 * write batch as the change they count: an entry of the {@code counters} column family.
 *
 * <p>Key: {@code [version 1][partition u16]}.
 * <p>Value, big-endian:
 * <pre>
 *   offset  size  field
 *        0     1  layout version (1)
 *        1     8  queued URLs (leased ones included: they stay queued until completed)
 *        9     8  active hosts (hosts with queued URLs)
 *       17     8  last sequence number handed to a queue key in any partition
 *       25     8  completions with outcome FETCHED
 *       33     8  completions with outcome RETRY_AFTER
 *       41     8  completions with outcome FAILED
 * </pre>
 * Not thread-safe: the frontier changes it under its lock.
 */
public final class PartitionCounters {
  public static final int KEY_VERSION = 1;
  public static final int VALUE_VERSION = 1;
  static final int VALUE_BYTES = 49;

  public final int partition;
  /** Written with every operation of the partition; made once (callers must not change it). */
  private final byte[] key;
  public long queued;
  public long hosts;
  public long lastSeq;
  public long fetched;
  public long retried;
  public long failed;

  public PartitionCounters(int partition) {
    this.partition = partition;
    this.key = key(partition);
  }

  public byte[] key() {
    return key;
  }

  public static byte[] key(int partition) {
    byte[] k = new byte[3];
    k[0] = KEY_VERSION;
    Bytes.putU16(k, 1, partition);
    return k;
  }

  public byte[] encode() {
    byte[] v = new byte[VALUE_BYTES];
    v[0] = VALUE_VERSION;
    Bytes.putI64(v, 1, queued);
    Bytes.putI64(v, 9, hosts);
    Bytes.putI64(v, 17, lastSeq);
    Bytes.putI64(v, 25, fetched);
    Bytes.putI64(v, 33, retried);
    Bytes.putI64(v, 41, failed);
    return v;
  }

  public static PartitionCounters decode(byte[] key, byte[] v) {
    checkState(key[0] == KEY_VERSION && v[0] == VALUE_VERSION,
        "counters version (key %s, value %s) is not %s: written by another frontier version", key[0], v[0],
        VALUE_VERSION);
    checkState(v.length == VALUE_BYTES, "counters value is %s bytes, not %s", v.length, VALUE_BYTES);
    PartitionCounters c = new PartitionCounters(Bytes.getU16(key, 1));
    c.queued = Bytes.getI64(v, 1);
    c.hosts = Bytes.getI64(v, 9);
    c.lastSeq = Bytes.getI64(v, 17);
    c.fetched = Bytes.getI64(v, 25);
    c.retried = Bytes.getI64(v, 33);
    c.failed = Bytes.getI64(v, 41);
    return c;
  }
}
