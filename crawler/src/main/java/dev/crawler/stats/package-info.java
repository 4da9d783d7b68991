/**
 * The crawl's numbers.
 *
 * <p>{@link dev.crawler.stats.CrawlStats} counts, on the hot path, what happened to every URL
 * taken from the frontier ({@link dev.crawler.record.CrawlOutcome}, status class, bytes) and to
 * every discovered URL ({@link dev.crawler.stats.LinkVerdict}).
 * {@link dev.crawler.stats.StatsReporter} turns those counts, with the frontier's and the
 * URL-seen service's, into a line a person reads at a glance every few seconds, a stats.json a
 * script reads, and a summary at the end. A resumed crawl reads its stats.json back
 * ({@link dev.crawler.stats.StatsSnapshot#readFrom}) and {@linkplain
 * dev.crawler.stats.CrawlStats#restore continues} its totals.
 */
package dev.crawler.stats;
