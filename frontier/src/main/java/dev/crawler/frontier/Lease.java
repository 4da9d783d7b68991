package dev.crawler.frontier;

import java.time.Duration;
import java.time.Instant;

/**
 * A URL handed out by {@link Frontier#next}: the caller fetches it and then calls
 * {@link Frontier#complete} exactly once. Until then the URL stays in its queue on disk, so a
 * lease never completed because the process died is handed out again after the restart. A
 * lease belongs to the frontier that gave it: after a close and reopen it cannot be completed.
 */
public final class Lease {
  final Frontier owner;
  /** The partitions of its host, whose lock its completion takes. */
  final PartitionGroup group;
  final byte[] key;
  private final String url;
  private final String hostKey;
  private final int depth;
  private final int priority;
  private final String via;
  private final int redirectHops;
  private final Instant leasedAt;
  /** The host's next allowed time before this lease moved it on. */
  final long scheduledBefore;
  /** The host's connection limit and delay when the lease was handed out. */
  final int leasedConnections;
  final long leasedDelayMillis;

  Lease(Frontier owner, PartitionGroup group, byte[] key, String url, String hostKey, int depth, int priority, String via,
      int redirectHops, Instant leasedAt, long scheduledBefore, int leasedConnections,
      long leasedDelayMillis) {
    this.owner = owner;
    this.group = group;
    this.key = key;
    this.url = url;
    this.hostKey = hostKey;
    this.depth = depth;
    this.priority = priority;
    this.via = via;
    this.redirectHops = redirectHops;
    this.leasedAt = leasedAt;
    this.scheduledBefore = scheduledBefore;
    this.leasedConnections = leasedConnections;
    this.leasedDelayMillis = leasedDelayMillis;
  }

  public String url() {
    return url;
  }

  public String hostKey() {
    return hostKey;
  }

  public int depth() {
    return depth;
  }

  public int priority() {
    return priority;
  }

  /**
   * The page this URL was found on, as offered (cut to {@link FrontierEntry#MAX_VIA_BYTES}
   * bytes if it was longer); null for a seed and for URLs queued by a frontier older than vias.
   */
  public String via() {
    return via;
  }

  /** Redirects followed to reach this URL, as offered; 0 for URLs queued before hops were kept. */
  public int redirectHops() {
    return redirectHops;
  }

  /** When it was handed out, by the frontier's clock. */
  /**
   * The host's delay between requests when the lease was handed out: what a second request made
   * under this lease (a redirect hop of robots.txt) waits after the first ended.
   */
  public Duration hostDelay() {
    return Duration.ofMillis(leasedDelayMillis);
  }

  public Instant leasedAt() {
    return leasedAt;
  }

  @Override
  public String toString() {
    return "Lease[" + url + " host " + hostKey + " depth " + depth + " priority " + priority
        + (via == null ? "" : " via " + via) + (redirectHops == 0 ? "" : " hops " + redirectHops) + "]";
  }
}
