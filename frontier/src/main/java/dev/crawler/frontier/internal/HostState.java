package dev.crawler.frontier.internal;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;

/**
 * What the frontier remembers about a host between fetches: an entry of the {@code hosts}
 * column family.
 *
 * <p>Key: {@code [version 1][partition u16][host key UTF-8]}.
 * <p>Value, big-endian:
 * <pre>
 *   offset  size  field
 *        0     1  layout version (1)
 *        1     1  flags: bit 0 = active (the host has queued URLs and an entry in the schedule)
 *        2     8  next allowed fetch, epoch millis; authoritative while the host is inactive,
 *                 while it is active the schedule key holds the current value
 *       10     8  robots Crawl-delay in millis as the crawler set it, uncapped; -1 = none
 *       18     2  connection limit the crawler set; 0 = the configured default
 *       20     4  consecutive failed fetches
 * </pre>
 * The Crawl-delay is stored uncapped and the limit as "default" so that a changed
 * configuration applies to hosts already known. Fetches in flight are not stored: after a
 * restart nothing is in flight, and every leased URL is still in its queue.
 */
public record HostState(boolean active, long nextAllowedMillis, long crawlDelayMillis, int connectionLimit,
    int consecutiveFailures) {
  public static final int KEY_VERSION = 1;
  public static final int VALUE_VERSION = 1;
  static final int VALUE_BYTES = 24;
  private static final int FLAG_ACTIVE = 1;

  /** A host seen for the first time. */
  public static final HostState NEW = new HostState(false, 0, -1, 0, 0);

  public HostState {
    checkArgument(nextAllowedMillis >= 0, "nextAllowedMillis (%s) must be >= 0", nextAllowedMillis);
    checkArgument(crawlDelayMillis >= -1, "crawlDelayMillis (%s) must be >= -1", crawlDelayMillis);
    checkArgument(connectionLimit >= 0 && connectionLimit <= 0xFFFF, "connectionLimit (%s) must be in [0, 65535]",
        connectionLimit);
    checkArgument(consecutiveFailures >= 0, "consecutiveFailures (%s) must be >= 0", consecutiveFailures);
  }

  public static byte[] key(int partition, byte[] hostKeyUtf8) {
    byte[] k = new byte[3 + hostKeyUtf8.length];
    k[0] = KEY_VERSION;
    Bytes.putU16(k, 1, partition);
    System.arraycopy(hostKeyUtf8, 0, k, 3, hostKeyUtf8.length);
    return k;
  }

  public byte[] encode() {
    byte[] v = new byte[VALUE_BYTES];
    v[0] = VALUE_VERSION;
    v[1] = (byte) (active ? FLAG_ACTIVE : 0);
    Bytes.putI64(v, 2, nextAllowedMillis);
    Bytes.putI64(v, 10, crawlDelayMillis);
    Bytes.putU16(v, 18, connectionLimit);
    Bytes.putI32(v, 20, consecutiveFailures);
    return v;
  }

  public static HostState decode(byte[] v) {
    checkState(v[0] == VALUE_VERSION, "host state version (%s) is not %s: written by another frontier version",
        v[0], VALUE_VERSION);
    checkState(v.length == VALUE_BYTES, "host state is %s bytes, not %s", v.length, VALUE_BYTES);
    return new HostState((v[1] & FLAG_ACTIVE) != 0, Bytes.getI64(v, 2), Bytes.getI64(v, 10), Bytes.getU16(v, 18),
        Bytes.getI32(v, 20));
  }

  public HostState withActive(boolean active, long nextAllowedMillis) {
    return new HostState(active, nextAllowedMillis, crawlDelayMillis, connectionLimit, consecutiveFailures);
  }

  public HostState withCrawlDelay(long crawlDelayMillis) {
    return new HostState(active, nextAllowedMillis, crawlDelayMillis, connectionLimit, consecutiveFailures);
  }

  public HostState withConnectionLimit(int connectionLimit) {
    return new HostState(active, nextAllowedMillis, crawlDelayMillis, connectionLimit, consecutiveFailures);
  }

  public HostState withFailures(int consecutiveFailures) {
    if (consecutiveFailures == this.consecutiveFailures) {
      return this;   // every successful fetch: no object for nothing changed
    }
    return new HostState(active, nextAllowedMillis, crawlDelayMillis, connectionLimit, consecutiveFailures);
  }
}
