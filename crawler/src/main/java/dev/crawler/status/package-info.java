/**
 * Watching a running crawl: Prometheus metrics at {@code /metrics} and a status page at {@code /}
 * that polls {@code /status.json}, both served by the crawl itself on {@code status.listen}.
 *
 * <p>The counters come from the stats reporter's reports, so the page, {@code /metrics} and
 * stats.json show the same numbers between two reports; fetch latency, per-host activity and
 * recent errors come from each settled visit. Labels are bounded (outcomes, status classes, link
 * verdicts): per-host detail is on the page only, for a bounded number of hosts.
 */
package dev.crawler.status;
