package dev.crawler.frontier;

/**
 * The frontier's counts at one moment.
 *
 * @param queuedUrls URLs in the queues, leased ones included (they stay until completed)
 * @param hosts hosts in the schedule: those with queued URLs, and for a moment those whose
 *     queue just emptied (a host leaves when the frontier next looks at its empty queue)
 * @param readyHosts hosts of the in-memory working set that may be fetched now; when more
 *     hosts are ready than the working set holds, this counts only those it holds
 * @param leasedUrls URLs handed out and not yet completed
 * @param fetched completions with {@link FetchOutcome.Kind#FETCHED} or {@link FetchOutcome.Kind#SKIPPED} (URLs
 *     done without an error), over the store's life
 * @param retried completions with {@link FetchOutcome.Kind#RETRY_AFTER}, over the store's life
 * @param failed completions with {@link FetchOutcome.Kind#FAILED}, over the store's life
 */
public record FrontierStats(long queuedUrls, long hosts, long readyHosts, long leasedUrls, long fetched,
    long retried, long failed) {}
