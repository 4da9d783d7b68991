package dev.crawler.intake;

import dev.crawler.dedup.UrlFingerprint;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.frontier.Frontier;
import dev.crawler.frontier.FrontierEntry;
import dev.crawler.stats.CrawlStats;
import dev.crawler.stats.LinkVerdict;
import java.util.ArrayList;
import java.util.List;

/**
 * The local end of the intake: asks the URL-seen service about a batch in one call (so its
 * "maybe"s are confirmed in one store read) and queues the new ones in the frontier in one write.
 *
 * <p>Order matters for durability: a batch's NEW URLs are offered to the frontier before the
 * URL-seen service records them ({@link UrlSeenService#markSeenAll(List, java.util.function.Consumer)}),
 * so a URL recorded as seen is always queued. A process killed between the two has queued URLs
 * it did not record; the page that held them is still leased, so it is fetched again after the
 * restart and finds them NEW again: they are queued (and fetched) twice. That duplicate is the
 * whole cost of a kill here, bounded by the NEW URLs of the batches in flight at the kill; the
 * other order would lose those URLs for good.
 */
public final class SeenThenQueued implements AdmittedUrls {
  private final UrlSeenService seen;
  private final Frontier frontier;
  private final CrawlStats stats;

  public SeenThenQueued(UrlSeenService seen, Frontier frontier, CrawlStats stats) {
    this.seen = seen;
    this.frontier = frontier;
    this.stats = stats;
  }

  @Override
  public int take(List<AdmittedUrl> urls) {
    if (urls.isEmpty()) {
      return 0;
    }
    List<UrlFingerprint> fingerprints = new ArrayList<>(urls.size());
    for (AdmittedUrl url : urls) {
      fingerprints.add(UrlFingerprint.of(url.url().url()));
    }
    List<FrontierEntry> fresh = new ArrayList<>();
    seen.markSeenAll(fingerprints, verdicts -> {
      for (int i = 0; i < urls.size(); i++) {
        if (verdicts.get(i) == UrlSeenService.Verdict.NEW) {
          fresh.add(urls.get(i).toFrontierEntry());
        }
      }
      if (!fresh.isEmpty()) {
        frontier.offer(fresh);   // queued before recorded as seen: see the class comment
      }
    });
    if (!fresh.isEmpty()) {
      stats.links(LinkVerdict.NEW, fresh.size());
    }
    if (fresh.size() < urls.size()) {
      stats.links(LinkVerdict.DUPLICATE, urls.size() - fresh.size());
    }
    return fresh.size();
  }
}
