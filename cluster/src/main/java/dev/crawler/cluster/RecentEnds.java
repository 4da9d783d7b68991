package dev.crawler.cluster;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * When each host of one partition last ended a request on this node, and until when a Retry-After
 * holds it, for as long as either can still matter: what a hand-over owes the next owner
 * ({@link #owed}). Kept here rather than read from the frontier, whose times are in its own
 * clock's millis and whose hosts on disk would need a scan of the whole partition.
 * Thread-safe.
 */
final class RecentEnds {
  /** Added to each wait owed: the next owner's clock reads whole milliseconds too. */
  private static final long TICK_MILLIS = 1;

  private record End(long endNanos, long heldUntilNanos) {}

  /** In the order of their last end, oldest first: what has been forgotten is at the front. */
  private final LinkedHashMap<String, End> ends = new LinkedHashMap<>();
  private final long keepNanos;

  /** @param longestDelayMillis the longest delay a host of the crawl can have (the Crawl-delay cap, or the default) */
  RecentEnds(long longestDelayMillis) {
    this.keepNanos = TimeUnit.MILLISECONDS.toNanos(longestDelayMillis);
  }

  /**
   * A request of {@code hostKey} ended at {@code nowNanos} (or may still be under way: then now
   * stands for its end); {@code heldMillis} more is what its answer asked to wait (a Retry-After),
   * 0 if nothing.
   */
  synchronized void ended(String hostKey, long nowNanos, long heldMillis) {
    End before = ends.remove(hostKey);
    long held = nowNanos + TimeUnit.MILLISECONDS.toNanos(heldMillis);
    if (before != null) {
      held = Math.max(held, before.heldUntilNanos());
    }
    ends.put(hostKey, new End(nowNanos, held));
    forgetBefore(nowNanos);
  }

  private void forgetBefore(long nowNanos) {
    Iterator<End> oldest = ends.values().iterator();
    while (oldest.hasNext()) {
      End e = oldest.next();
      if (nowNanos - e.endNanos() <= keepNanos || e.heldUntilNanos() > nowNanos) {
        return;
      }
      oldest.remove();
    }
  }

  /**
   * The wait each host still owes at {@code nowNanos}, in millis, for those that owe one: what is
   * left of its delay since its last end, or of what holds it, whichever is longer.
   *
   * @param delayMillis a host's delay as its settings give it now
   */
  synchronized Map<String, Long> owed(long nowNanos, ToLongFunction<String> delayMillis) {
    forgetBefore(nowNanos);
    Map<String, Long> owed = new HashMap<>();
    for (Map.Entry<String, End> e : ends.entrySet()) {
      End end = e.getValue();
      long until = Math.max(end.heldUntilNanos(),
          end.endNanos() + TimeUnit.MILLISECONDS.toNanos(delayMillis.applyAsLong(e.getKey())));
      if (until > nowNanos) {
        long millis = TimeUnit.NANOSECONDS.toMillis(until - nowNanos + TimeUnit.MILLISECONDS.toNanos(1) - 1);
        owed.put(e.getKey(), millis + TICK_MILLIS);
      }
    }
    return owed;
  }

  synchronized int size() {
    return ends.size();
  }
}
