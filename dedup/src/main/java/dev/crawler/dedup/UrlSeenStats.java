package dev.crawler.dedup;

/**
 * What the URL-seen service has answered and what it costs; a snapshot.
 *
 * @param checks URLs asked about
 * @param newUrls answered NEW
 * @param seen answered SEEN
 * @param recentHits SEEN answers from the memory of recent URLs, without the filter
 * @param filterMaybes the filter's "maybe" answers
 * @param storeReads fingerprints looked up in the exact store (policy verify)
 * @param caughtFalsePositives "maybe" answers the exact store proved wrong: NEW URLs a
 *     filter alone would have skipped (policy verify)
 * @param estimatedSkips NEW URLs the filter alone probably skipped (policy accept):
 *     for each NEW answer at filter rate r, r/(1-r) others went unseen
 * @param filters Bloom filters stacked (more than one after growing)
 * @param filterUrls URLs the filters hold
 * @param filterCapacity URLs the filters were sized for, summed over the stack
 * @param fillRatio bits set over all bits
 * @param estimatedRate the filters' false-positive rate now
 * @param filterBytes the filters' memory
 * @param stack each filter's size and fill, the first (oldest) first; empty in a stats.json written
 *     before it was kept
 */
public record UrlSeenStats(long checks, long newUrls, long seen, long recentHits, long filterMaybes,
    long storeReads, long caughtFalsePositives, double estimatedSkips, int filters, long filterUrls, long filterCapacity,
    double fillRatio, double estimatedRate, long filterBytes, java.util.List<FilterFill> stack) {

  public UrlSeenStats {
    stack = stack == null ? java.util.List.of() : java.util.List.copyOf(stack);
  }
}
