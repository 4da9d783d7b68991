/**
 * The crawl frontier: every URL waiting to be fetched, and the politeness schedule that
 * decides which host may be fetched next.
 *
 * <h2>A URL's stay</h2>
 * {@link dev.crawler.frontier.Frontier#offer offer} appends the URL to its host's queue on
 * disk, a contiguous key range of the RocksDB {@code queue} column family ordered by priority
 * then arrival. Its depth, the page it was found on (its via) and the redirects that led to it
 * are stored beside it and come back with its lease, after a restart too. If the host had nothing queued it becomes active: it gets an entry in the
 * {@code schedule} column family, keyed by the time it may next be fetched.
 *
 * <p>{@link dev.crawler.frontier.Frontier#next next} takes the earliest host of the schedule
 * whose time has come and that has a free connection, and leases the head of its queue. The
 * URL is not removed: a lease is only memory. If the process dies, the URL is still queued
 * and is handed out again after the restart, so a URL is fetched at least once and twice
 * only if it was in flight at the crash.
 *
 * <p>{@link dev.crawler.frontier.Frontier#complete complete} removes the URL (or keeps it,
 * for a 429/503 Retry-After) and moves the host in the schedule to its next allowed time:
 * its delay after a fetch, a capped Retry-After, an exponential back-off with jitter after
 * failures, or a suspension after many failures in a row. A host whose queue runs empty
 * leaves the schedule and keeps its state (delay, failures, next allowed time) for when new
 * URLs arrive.
 *
 * <h2>Writes</h2>
 * Each operation's changes form one atomic unit, staged under its partition group's lock in the
 * order decided and written outside it; the first caller to wait writes everything the group
 * staged, so concurrent fetchers' completions share one write-ahead-log append
 * ({@link dev.crawler.frontier.internal.GroupCommit}). A call returns once its changes are
 * written, and every read of the store first writes what its group staged. Groups (up to 16,
 * one per partition) touch disjoint keys, so their locks and writes run side by side; RocksDB
 * joins writes that arrive together into one log append of its own.
 *
 * <h2>Memory</h2>
 * The heap holds a working set: the first few thousand hosts of the schedule, each with a
 * few URLs read ahead, refilled from disk as it drains
 * ({@link dev.crawler.frontier.internal.HostSchedule}); hosts that leave it keep what they read
 * ahead, within a budget, for their next stay. Neither the number of URLs nor the number of
 * hosts changes its size. RocksDB's native memory is bounded by one block cache
 * that the memtables are charged to.
 *
 * <h2>Partitions</h2>
 * Every stored key starts with its host's partition, murmur3(host key) mod P, so a cluster
 * can later give each node a set of partitions and move their key ranges whole.
 *
 * <p>Stored layouts are documented where they are written, in
 * {@link dev.crawler.frontier.internal.QueuedUrl}, {@link dev.crawler.frontier.internal.HostState},
 * {@link dev.crawler.frontier.internal.ScheduleKey},
 * {@link dev.crawler.frontier.internal.PartitionCounters} and
 * {@link dev.crawler.frontier.internal.FrontierStore}.
 */
package dev.crawler.frontier;
