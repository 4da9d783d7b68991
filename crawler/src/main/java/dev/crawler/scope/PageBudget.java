package dev.crawler.scope;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The crawl's page limits, in all and per host, counted when a fetch is about to be made (so a
 * URL that robots.txt or scope turns away costs nothing). Thread-safe and lock-free.
 *
 * <p>Invariant: grants never exceed {@code maxPages} in all, nor {@code maxPagesPerHost} for any
 * host key. {@link #tryAcquire} reserves the host's slot first, then the crawl's; if the crawl is
 * spent it gives the host's slot back. Between the two steps another caller for the same host may
 * see the host full and get {@link Grant#HOST_SPENT}; that happens only when the crawl's last slot
 * is being taken, and the crawl's total never goes down, so no page that could have been granted
 * is refused.
 *
 * <p>Per-host counts live in memory, one small entry per host key, and only when a per-host
 * limit is set; {@link #restore} sets them after a resume.
 */
public final class PageBudget {
  private final long maxPages;
  private final long maxPagesPerHost;
  private final AtomicLong spent = new AtomicLong();
  private final ConcurrentHashMap<String, AtomicLong> spentPerHost = new ConcurrentHashMap<>();

  /** What {@link #tryAcquire} answers. */
  public enum Grant {
    /** Fetch it: one page counted. */
    GRANTED,
    /** This host has had its pages; others may still be fetched. */
    HOST_SPENT,
    /** The crawl has had its pages: nothing more will be granted. */
    CRAWL_SPENT
  }

  /**
   * @param maxPages pages in all; {@link Long#MAX_VALUE} = unlimited
   * @param maxPagesPerHost pages per host key; {@link Long#MAX_VALUE} = unlimited
   */
  public PageBudget(long maxPages, long maxPagesPerHost) {
    checkArgument(maxPages >= 1, "maxPages (%s) must be >= 1", maxPages);
    checkArgument(maxPagesPerHost >= 1, "maxPagesPerHost (%s) must be >= 1", maxPagesPerHost);
    this.maxPages = maxPages;
    this.maxPagesPerHost = maxPagesPerHost;
  }

  /** Counts one page for {@code hostKey} if both limits allow it. */
  public Grant tryAcquire(String hostKey) {
    if (spent.get() >= maxPages) {
      return Grant.CRAWL_SPENT; // final: the total never goes down
    }
    AtomicLong host = null;
    if (maxPagesPerHost != Long.MAX_VALUE) {
      host = spentPerHost.computeIfAbsent(hostKey, key -> new AtomicLong());
      if (!incrementBelow(host, maxPagesPerHost)) {
        return Grant.HOST_SPENT;
      }
    }
    if (!incrementBelow(spent, maxPages)) {
      if (host != null) {
        host.decrementAndGet();
      }
      return Grant.CRAWL_SPENT;
    }
    return Grant.GRANTED;
  }

  /**
   * Sets the pages already spent, from the crawl's saved state, before a resumed crawl starts
   * fetching.
   *
   * @param pagesSoFar pages spent in all
   * @param perHost pages spent per host key (ignored without a per-host limit)
   */
  public void restore(long pagesSoFar, Map<String, Long> perHost) {
    checkArgument(pagesSoFar >= 0, "pagesSoFar (%s) must be >= 0", pagesSoFar);
    spent.set(pagesSoFar);
    spentPerHost.clear();
    if (limitedPerHost()) {
      perHost.forEach((host, pages) -> spentPerHost.put(host, new AtomicLong(pages)));
    }
  }

  /** Whether any limit is set, so that a resume must restore what was spent. */
  public boolean limited() {
    return maxPages != Long.MAX_VALUE || maxPagesPerHost != Long.MAX_VALUE;
  }

  /** Whether a per-host limit is set. */
  public boolean limitedPerHost() {
    return maxPagesPerHost != Long.MAX_VALUE;
  }

  /** Pages granted so far (plus the restored count). */
  public long spent() {
    return spent.get();
  }

  private static boolean incrementBelow(AtomicLong counter, long limit) {
    while (true) {
      long current = counter.get();
      if (current >= limit) {
        return false;
      }
      if (counter.compareAndSet(current, current + 1)) {
        return true;
      }
    }
  }
}
