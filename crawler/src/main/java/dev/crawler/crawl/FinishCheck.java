package dev.crawler.crawl;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Tells when a crawl has nothing left: no URL queued and no visit that could still queue one.
 *
 * <p>The frontier's count alone is not enough once it has several partition groups: it adds
 * them up one after the other, and a visit that begins and ends between two of those reads can
 * offer its links to a group already read and complete its own URL in a group not yet read, so
 * the sum is 0 while the links wait. A count is trusted only if no visit was under way when it
 * began and none began before it ended.
 */
final class FinishCheck {
  private final AtomicLong visitsBegun = new AtomicLong();
  private final AtomicInteger visitsUnderWay = new AtomicInteger();

  /** Called by a worker as soon as it holds a lease. */
  void visitBegins() {
    visitsBegun.incrementAndGet();
    visitsUnderWay.incrementAndGet();
  }

  /** Called once the lease is given back (or left open for a resume). */
  void visitEnds() {
    visitsUnderWay.decrementAndGet();
  }

  /** True if {@code queuedUrls} (leased ones included) is 0 and no visit ran while it was read. */
  boolean nothingLeft(LongSupplier queuedUrls) {
    long begunBefore = visitsBegun.get();
    if (visitsUnderWay.get() != 0) {
      return false;
    }
    long queued = queuedUrls.getAsLong();
    return queued == 0 && visitsUnderWay.get() == 0 && visitsBegun.get() == begunBefore;
  }
}
