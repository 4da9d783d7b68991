/**
 * What the crawl keeps of each URL it takes from the frontier.
 *
 * <ul>
 *   <li>{@link dev.crawler.record.WarcRecorder}: fetches that got a response, as WARC 1.1 request and
 *       response records (jwarc), in rotated {@code .warc.gz} files.
 *   <li>{@link dev.crawler.record.CrawlLog}: one {@link dev.crawler.record.CrawlLogEntry} line for every
 *       URL, answered or not, with its {@link dev.crawler.record.CrawlOutcome}.
 * </ul>
 *
 * Both are written by many fetch workers at once and are thread-safe. Both turn an I/O failure
 * (a full disk) into an {@link java.io.UncheckedIOException} that names the file: the crawl stops
 * on it rather than go on fetching pages it cannot keep.
 */
package dev.crawler.record;
