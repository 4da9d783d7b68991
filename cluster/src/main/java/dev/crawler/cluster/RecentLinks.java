package dev.crawler.cluster;

import dev.crawler.dedup.UrlFingerprint;
import dev.crawler.dedup.internal.RecentFingerprints;
import dev.crawler.intake.AdmittedUrl;
import dev.crawler.intake.AdmittedUrls;
import dev.crawler.stats.CrawlStats;
import dev.crawler.stats.LinkVerdict;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Drops, before they are sent, the links this node sent recently: most links of a page are its
 * site's navigation, which every page repeats, and each one sent costs a record on the URL topic
 * for ever and a URL-seen check at its owner. A URL is remembered once the broker has it, so a
 * link dropped here is always on the topic already. The sends are not waited for here: the
 * visit's completion waits for them ({@link PendingLinks}), so a worker goes on meanwhile. URL-seen's own memory of recent fingerprints
 * (direct-mapped, lossy: an old link may be sent again, never a new one dropped, but for a
 * 2^-64 chance of two fingerprints' halves meeting). Dropped links count as duplicates.
 */
final class RecentLinks implements AdmittedUrls {
  private final UrlTopicProducer next;
  private final PendingLinks pending;
  private final RecentFingerprints sent;
  private final CrawlStats stats;
  private final AtomicLong dropped = new AtomicLong();

  /** @param pending where each visit's sends are left for its completion to wait on */
  RecentLinks(UrlTopicProducer next, PendingLinks pending, int capacity, CrawlStats stats) {
    this.next = next;
    this.pending = pending;
    this.sent = new RecentFingerprints(capacity);
    this.stats = stats;
  }

  @Override
  public int take(List<AdmittedUrl> urls) {
    List<AdmittedUrl> fresh = new ArrayList<>(urls.size());
    List<UrlFingerprint> prints = new ArrayList<>(urls.size());
    for (AdmittedUrl u : urls) {
      UrlFingerprint fp = UrlFingerprint.of(u.url().url());
      if (!sent.contains(fp)) {
        fresh.add(u);
        prints.add(fp);
      }
    }
    int repeats = urls.size() - fresh.size();
    if (repeats > 0) {
      dropped.addAndGet(repeats);
      stats.links(LinkVerdict.DUPLICATE, repeats);
    }
    if (fresh.isEmpty()) {
      return 0;
    }
    CompletableFuture<Void> send;
    try {
      send = next.send(fresh);
    } catch (RuntimeException e) {
      send = CompletableFuture.failedFuture(e);   // the visit's completion puts its URL back
    }
    send.thenRun(() -> prints.forEach(sent::add));   // only once the broker has them
    pending.track(send);
    return fresh.size();
  }

  /** Links dropped since the start as sent recently. */
  long dropped() {
    return dropped.get();
  }
}
