package dev.crawler.frontier;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.time.Duration;
import java.time.InstantSource;

/**
 * Everything the frontier can be told, with defaults. The crawler maps its YAML keys
 * ({@code politeness.*}, {@code frontier.*}) onto these; this module knows no YAML.
 * Build with {@link #builder()}; each default lives in one constant below.
 *
 * @param defaultDelay least time between the end of one fetch from a host and the start of
 *     the next ({@code politeness.default-delay})
 * @param maxCrawlDelay cap on a robots.txt Crawl-delay ({@code politeness.max-crawl-delay})
 * @param connectionsPerHost fetches in flight at once to one host, unless set per host
 *     ({@code politeness.connections-per-host})
 * @param maxRetryAfter cap on a 429/503 Retry-After ({@code politeness.max-retry-after})
 * @param backoffInitial wait after a host's first failure, doubled per further failure
 *     ({@code politeness.error-backoff.initial})
 * @param backoffMax cap on that wait ({@code politeness.error-backoff.max})
 * @param suspendAfter consecutive failures that suspend a host
 *     ({@code politeness.error-backoff.suspend-after})
 * @param suspendFor how long a suspended host waits before it is tried again
 *     ({@code politeness.error-backoff.suspend-for})
 * @param sync durability of every write ({@code frontier.sync})
 * @param deferredCompletions completions a lock group may leave unwritten, to share one
 *     write-ahead-log append with those after them; 0 (the default): every completion is
 *     durable when {@code complete} returns. Above 0 a completion that finds more than this many
 *     waiting in its group writes them all; otherwise the group's next write takes it along (an
 *     offer's, a setting's, a read's, or the frontier's deferred writer's, every
 *     {@link Frontier#DEFERRED_WRITE_INTERVAL}). A kill -9 hands out again the URLs whose
 *     completions were still unwritten, as it does the leases in flight: at most 2N + T a group
 *     (N this value, T the threads completing in the group), the most recent ones. Offers and
 *     host settings stay durable on return. Not mapped to YAML: the crawler promises that a URL
 *     is settled in its crawl log once, so it keeps 0
 * @param partitions host partitions, hash(host key) mod this, in every stored key
 *     ({@code frontier.partitions}); fixed for the life of a store. Partition p is served by
 *     lock group p mod min(partitions, 16), each with its own lock, schedule and a share of
 *     the working set, so more than one partition lets fetcher threads work side by side
 * @param workingSetHosts hosts the heap holds at most (besides those with fetches in
 *     flight); the rest wait on disk in the schedule
 * @param knownHostsCache host keys remembered as active so an offer needs no disk read to
 *     know its host is already scheduled
 * @param readAheadBytes heap, estimated, for URLs read ahead and kept for hosts that left the
 *     working set, so that a host's next stay needs no disk read; a host leaving when it is
 *     spent keeps only where its next read starts
 * @param blockCacheBytes RocksDB's block cache, shared by all column families, which the
 *     memtables are charged to as well
 * @param memtableBytes RocksDB's memtables, all column families together
 * @param clock the time politeness is computed from; tests pass one they control
 */
public record FrontierOptions(Duration defaultDelay, Duration maxCrawlDelay, int connectionsPerHost,
    Duration maxRetryAfter, Duration backoffInitial, Duration backoffMax, int suspendAfter, Duration suspendFor,
    SyncPolicy sync, int deferredCompletions, int partitions, int workingSetHosts, int knownHostsCache, long readAheadBytes,
    long blockCacheBytes, long memtableBytes, InstantSource clock) {

  public static final Duration DEFAULT_DELAY = Duration.ofSeconds(1);
  public static final Duration DEFAULT_MAX_CRAWL_DELAY = Duration.ofSeconds(30);
  public static final int DEFAULT_CONNECTIONS_PER_HOST = 1;
  public static final Duration DEFAULT_MAX_RETRY_AFTER = Duration.ofMinutes(10);
  public static final Duration DEFAULT_BACKOFF_INITIAL = Duration.ofSeconds(10);
  public static final Duration DEFAULT_BACKOFF_MAX = Duration.ofMinutes(30);
  public static final int DEFAULT_SUSPEND_AFTER = 10;
  public static final Duration DEFAULT_SUSPEND_FOR = Duration.ofHours(6);
  public static final SyncPolicy DEFAULT_SYNC = SyncPolicy.WAL;
  public static final int DEFAULT_DEFERRED_COMPLETIONS = 0;
  /** The most {@link #deferredCompletions()}: a bound on what a kill -9 hands out again, and on a batch's size. */
  public static final int MAX_DEFERRED_COMPLETIONS = 100_000;
  public static final int DEFAULT_PARTITIONS = 1;
  public static final int DEFAULT_WORKING_SET_HOSTS = 20_000;
  public static final int DEFAULT_KNOWN_HOSTS_CACHE = 100_000;
  public static final long DEFAULT_READ_AHEAD_BYTES = 64L << 20;
  public static final long DEFAULT_BLOCK_CACHE_BYTES = 128L << 20;
  public static final long DEFAULT_MEMTABLE_BYTES = 64L << 20;
  /** The most connections a host may be given; the stored limit is 16 bits. */
  public static final int MAX_CONNECTIONS_PER_HOST = 1024;

  public FrontierOptions {
    checkNonNegative("defaultDelay", defaultDelay);
    checkNonNegative("maxCrawlDelay", maxCrawlDelay);
    checkArgument(connectionsPerHost >= 1 && connectionsPerHost <= MAX_CONNECTIONS_PER_HOST,
        "connectionsPerHost (%s) must be in [1, %s]", connectionsPerHost, MAX_CONNECTIONS_PER_HOST);
    checkNonNegative("maxRetryAfter", maxRetryAfter);
    checkNonNegative("backoffInitial", backoffInitial);
    checkNonNegative("backoffMax", backoffMax);
    checkArgument(backoffInitial.compareTo(backoffMax) <= 0, "backoffInitial (%s) must be <= backoffMax (%s)",
        backoffInitial, backoffMax);
    checkArgument(suspendAfter >= 1, "suspendAfter (%s) must be >= 1", suspendAfter);
    checkNonNegative("suspendFor", suspendFor);
    checkNotNull(sync, "sync");
    checkArgument(deferredCompletions >= 0 && deferredCompletions <= MAX_DEFERRED_COMPLETIONS,
        "deferredCompletions (%s) must be in [0, %s]", deferredCompletions, MAX_DEFERRED_COMPLETIONS);
    checkArgument(partitions >= 1 && partitions <= 1 << 16, "partitions (%s) must be in [1, 65536]", partitions);
    checkArgument(workingSetHosts >= 1, "workingSetHosts (%s) must be >= 1", workingSetHosts);
    checkArgument(knownHostsCache >= 0, "knownHostsCache (%s) must be >= 0", knownHostsCache);
    checkArgument(readAheadBytes >= 0, "readAheadBytes (%s) must be >= 0", readAheadBytes);
    checkArgument(blockCacheBytes >= 1 << 20, "blockCacheBytes (%s) must be >= 1 MB", blockCacheBytes);
    checkArgument(memtableBytes >= 1 << 20, "memtableBytes (%s) must be >= 1 MB", memtableBytes);
    checkNotNull(clock, "clock");
  }

  private static void checkNonNegative(String name, Duration d) {
    checkNotNull(d, name);
    checkArgument(!d.isNegative(), "%s (%s) must be >= 0", name, d);
  }

  public static FrontierOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder().defaultDelay(defaultDelay).maxCrawlDelay(maxCrawlDelay)
        .connectionsPerHost(connectionsPerHost).maxRetryAfter(maxRetryAfter).backoffInitial(backoffInitial)
        .backoffMax(backoffMax).suspendAfter(suspendAfter).suspendFor(suspendFor).sync(sync)
        .deferredCompletions(deferredCompletions).partitions(partitions)
        .workingSetHosts(workingSetHosts).knownHostsCache(knownHostsCache).readAheadBytes(readAheadBytes)
        .blockCacheBytes(blockCacheBytes).memtableBytes(memtableBytes).clock(clock);
  }

  /** Builds options; unset values take the defaults above. */
  public static final class Builder {
    private Duration defaultDelay = DEFAULT_DELAY;
    private Duration maxCrawlDelay = DEFAULT_MAX_CRAWL_DELAY;
    private int connectionsPerHost = DEFAULT_CONNECTIONS_PER_HOST;
    private Duration maxRetryAfter = DEFAULT_MAX_RETRY_AFTER;
    private Duration backoffInitial = DEFAULT_BACKOFF_INITIAL;
    private Duration backoffMax = DEFAULT_BACKOFF_MAX;
    private int suspendAfter = DEFAULT_SUSPEND_AFTER;
    private Duration suspendFor = DEFAULT_SUSPEND_FOR;
    private SyncPolicy sync = DEFAULT_SYNC;
    private int deferredCompletions = DEFAULT_DEFERRED_COMPLETIONS;
    private int partitions = DEFAULT_PARTITIONS;
    private int workingSetHosts = DEFAULT_WORKING_SET_HOSTS;
    private int knownHostsCache = DEFAULT_KNOWN_HOSTS_CACHE;
    private long readAheadBytes = DEFAULT_READ_AHEAD_BYTES;
    private long blockCacheBytes = DEFAULT_BLOCK_CACHE_BYTES;
    private long memtableBytes = DEFAULT_MEMTABLE_BYTES;
    private InstantSource clock = InstantSource.system();

    private Builder() {}

    public Builder defaultDelay(Duration v) { defaultDelay = v; return this; }
    public Builder maxCrawlDelay(Duration v) { maxCrawlDelay = v; return this; }
    public Builder connectionsPerHost(int v) { connectionsPerHost = v; return this; }
    public Builder maxRetryAfter(Duration v) { maxRetryAfter = v; return this; }
    public Builder backoffInitial(Duration v) { backoffInitial = v; return this; }
    public Builder backoffMax(Duration v) { backoffMax = v; return this; }
    public Builder suspendAfter(int v) { suspendAfter = v; return this; }
    public Builder suspendFor(Duration v) { suspendFor = v; return this; }
    public Builder sync(SyncPolicy v) { sync = v; return this; }
    public Builder deferredCompletions(int v) { deferredCompletions = v; return this; }
    public Builder partitions(int v) { partitions = v; return this; }
    public Builder workingSetHosts(int v) { workingSetHosts = v; return this; }
    public Builder knownHostsCache(int v) { knownHostsCache = v; return this; }
    public Builder readAheadBytes(long v) { readAheadBytes = v; return this; }
    public Builder blockCacheBytes(long v) { blockCacheBytes = v; return this; }
    public Builder memtableBytes(long v) { memtableBytes = v; return this; }
    public Builder clock(InstantSource v) { clock = v; return this; }

    public FrontierOptions build() {
      return new FrontierOptions(defaultDelay, maxCrawlDelay, connectionsPerHost, maxRetryAfter, backoffInitial,
          backoffMax, suspendAfter, suspendFor, sync, deferredCompletions, partitions, workingSetHosts, knownHostsCache, readAheadBytes,
          blockCacheBytes, memtableBytes, clock);
    }
  }
}
