/**
 * How the frontier is stored and scheduled: byte layouts of the RocksDB column families
 * ({@link dev.crawler.frontier.internal.QueuedUrl}, {@link dev.crawler.frontier.internal.HostState},
 * {@link dev.crawler.frontier.internal.ScheduleKey},
 * {@link dev.crawler.frontier.internal.PartitionCounters}), the database and its tuning
 * ({@link dev.crawler.frontier.internal.FrontierStore}, {@link dev.crawler.frontier.internal.GroupCommit}), the in-heap working set of hosts
 * ({@link dev.crawler.frontier.internal.HostSchedule}, {@link dev.crawler.frontier.internal.HostQueue})
 * and the politeness arithmetic ({@link dev.crawler.frontier.internal.Politeness}).
 * Not an API: the classes are public only so the {@code dev.crawler.frontier} package can use them.
 */
package dev.crawler.frontier.internal;
