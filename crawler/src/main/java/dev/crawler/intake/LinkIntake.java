package dev.crawler.intake;

import dev.crawler.dedup.UrlNormalization;
import dev.crawler.dedup.UrlNormalizer;
import dev.crawler.queue.QueueKeys;
import dev.crawler.scope.Scope;
import dev.crawler.scope.ScopeVerdict;
import dev.crawler.stats.CrawlStats;
import dev.crawler.stats.LinkVerdict;
import dev.crawler.url.CrawlUrl;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The path every discovered URL takes into the crawl, whatever found it (a seed, a link, a
 * redirect, a sitemap): normalize, scope, queue key, then the {@link AdmittedUrls} that check it
 * against the URLs seen and queue it. One batch per page, so the URL-seen service confirms its
 * "maybe"s in one store read and the frontier takes one write. Thread-safe.
 */
public final class LinkIntake {
  /** 64 Ki slots: about 10 MB with typical URLs, and most repeated links of thousands of hosts. */
  static final int NORMALIZATION_SLOTS = 1 << 16;

  private static final LinkVerdict[] LINK_VERDICTS = LinkVerdict.values();

  private final RecentNormalizations normalizer;
  private final Scope scope;
  private final QueueKeys queueKeys;
  private final AdmittedUrls admitted;
  private final CrawlStats stats;

  public LinkIntake(UrlNormalizer normalizer, Scope scope, QueueKeys queueKeys, AdmittedUrls admitted,
      CrawlStats stats) {
    this.normalizer = new RecentNormalizations(normalizer, NORMALIZATION_SLOTS);
    this.scope = scope;
    this.queueKeys = queueKeys;
    this.admitted = admitted;
    this.stats = stats;
  }

  /**
   * Takes the URLs found on one page (or seeds, or one redirect target) into the crawl.
   *
   * @param rawUrls as found, absolute
   * @param depth the depth the new URLs get
   * @param via the page they were found on, null for seeds
   * @param redirectHops 0 for links; for a redirect target, the hops that led to it
   * @return how many were new and queued (see {@link AdmittedUrls#take})
   */
  public int take(Collection<String> rawUrls, int depth, String via, int redirectHops) {
    if (rawUrls.isEmpty()) {
      return 0;
    }
    // Counted here and added to the shared stats once a page: dozens of increments a page of one
    // counter shared by every worker cost more than the rest of the intake's bookkeeping.
    int[] counts = new int[LINK_VERDICTS.length];
    Map<String, CrawlUrl> candidates = new LinkedHashMap<>();
    for (String raw : rawUrls) {
      CrawlUrl url = admit(raw, depth, counts);
      if (url != null && candidates.putIfAbsent(url.url(), url) != null) {
        counts[LinkVerdict.DUPLICATE.ordinal()]++;   // twice on one page
      }
    }
    addToStats(counts);
    if (candidates.isEmpty()) {
      return 0;
    }
    List<CrawlUrl> urls = new ArrayList<>(candidates.values());
    List<String> keys = queueKeys.ofAll(urls);   // by address: the new hosts looked up side by side
    List<AdmittedUrl> batch = new ArrayList<>(urls.size());
    for (int i = 0; i < urls.size(); i++) {
      batch.add(new AdmittedUrl(urls.get(i), keys.get(i), depth, via, redirectHops));
    }
    return admitted.take(batch);
  }

  private void addToStats(int[] counts) {
    for (LinkVerdict verdict : LINK_VERDICTS) {
      if (counts[verdict.ordinal()] > 0) {
        stats.links(verdict, counts[verdict.ordinal()]);
      }
    }
  }

  /** The URL parsed from its normal form if it is in scope; null (and counted) if not. */
  private CrawlUrl admit(String raw, int depth, int[] counts) {
    String normal;
    switch (normalizer.normalize(raw)) {
      case UrlNormalization.Accepted accepted -> normal = accepted.url();
      case UrlNormalization.Rejected rejected -> {
        // The normalizer applies scope.max-url-length too (before and after normalizing): the
        // trap guard's own verdict, not a malformed URL.
        counts[(rejected.reason() == UrlNormalization.Reason.TOO_LONG ? LinkVerdict.TOO_LONG : LinkVerdict.REJECTED).ordinal()]++;
        return null;
      }
    }
    CrawlUrl url = CrawlUrl.of(normal);
    ScopeVerdict verdict = url == null ? scope.check(normal, depth) : scope.check(url, depth);
    if (!verdict.inScope()) {
      counts[counted(verdict).ordinal()]++;
      return null;
    }
    return url;
  }

  /** The stats' name of a scope refusal; a switch, so a new refusal does not compile until it is counted. */
  private static LinkVerdict counted(ScopeVerdict refusal) {
    return switch (refusal) {
      case IN_SCOPE -> throw new IllegalArgumentException("not a refusal: " + refusal);
      case OFF_SITE -> LinkVerdict.OFF_SITE;
      case NOT_INCLUDED -> LinkVerdict.NOT_INCLUDED;
      case EXCLUDED -> LinkVerdict.EXCLUDED;
      case TOO_DEEP -> LinkVerdict.TOO_DEEP;
      case TOO_LONG -> LinkVerdict.TOO_LONG;
      case REPEATED_SEGMENTS -> LinkVerdict.REPEATED_SEGMENTS;
      case TOO_MANY_PARAMETERS -> LinkVerdict.TOO_MANY_PARAMETERS;
    };
  }
}
