package dev.crawler.crawl;

import dev.crawler.dedup.UrlFingerprint;
import dev.crawler.dedup.UrlNormalization;
import dev.crawler.dedup.UrlNormalizer;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.frontier.Frontier;
import dev.crawler.frontier.FrontierEntry;
import dev.crawler.queue.QueueKeys;
import dev.crawler.scope.Scope;
import dev.crawler.scope.ScopeVerdict;
import dev.crawler.stats.CrawlStats;
import dev.crawler.stats.LinkVerdict;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The path every discovered URL takes into the crawl, whatever found it (a seed, a link, a
 * redirect, a sitemap): normalize, scope, URL-seen, frontier. One batch per page, so the
 * URL-seen service confirms its "maybe"s in one store read and the frontier takes one write.
 *
 * <p>Order matters for durability: a batch's NEW URLs are offered to the frontier before the
 * URL-seen service records them ({@link UrlSeenService#markSeenAll(List, java.util.function.Consumer)}),
 * so a URL recorded as seen is always queued. A process killed between the two has queued URLs
 * it did not record; the page that held them is still leased, so it is fetched again after the
 * restart and finds them NEW again: they are queued (and fetched) twice. That duplicate is the
 * whole cost of a kill here, bounded by the NEW URLs of the batches in flight at the kill; the
 * other order lost those URLs for good.
 */
final class LinkIntake {
  /** 64 Ki slots: about 10 MB with typical URLs, and most repeated links of thousands of hosts. */
  static final int NORMALIZATION_SLOTS = 1 << 16;

  private static final LinkVerdict[] LINK_VERDICTS = LinkVerdict.values();

  private final RecentNormalizations normalizer;
  private final Scope scope;
  private final QueueKeys queueKeys;
  private final UrlSeenService seen;
  private final Frontier frontier;
  private final CrawlStats stats;

  LinkIntake(UrlNormalizer normalizer, Scope scope, QueueKeys queueKeys, UrlSeenService seen, Frontier frontier,
      CrawlStats stats) {
    this.normalizer = new RecentNormalizations(normalizer, NORMALIZATION_SLOTS);
    this.scope = scope;
    this.queueKeys = queueKeys;
    this.seen = seen;
    this.frontier = frontier;
    this.stats = stats;
  }

  /**
   * Takes the URLs found on one page (or seeds, or one redirect target) into the crawl.
   *
   * @param rawUrls as found, absolute
   * @param depth the depth the new URLs get
   * @param via the page they were found on, null for seeds
   * @param redirectHops 0 for links; for a redirect target, the hops that led to it
   * @return how many were new and queued
   */
  int take(Collection<String> rawUrls, int depth, String via, int redirectHops) {
    if (rawUrls.isEmpty()) {
      return 0;
    }
    // Counted here and added to the shared stats once a page: dozens of increments of one shared
    // counter a page showed in the profile (about 2% of the crawl's CPU).
    int[] counts = new int[LINK_VERDICTS.length];
    Map<String, UrlFingerprint> candidates = new LinkedHashMap<>();
    for (String raw : rawUrls) {
      String url = admit(raw, depth, counts);
      if (url != null && candidates.putIfAbsent(url, UrlFingerprint.of(url)) != null) {
        counts[LinkVerdict.DUPLICATE.ordinal()]++;   // twice on one page
      }
    }
    if (candidates.isEmpty()) {
      addToStats(counts);
      return 0;
    }
    List<FrontierEntry> fresh = new ArrayList<>();
    seen.markSeenAll(new ArrayList<>(candidates.values()), verdicts -> {
      List<String> newUrls = new ArrayList<>();
      int i = 0;
      for (String url : candidates.keySet()) {
        if (verdicts.get(i++) == UrlSeenService.Verdict.NEW) {
          newUrls.add(url);
        }
      }
      List<String> keys = queueKeys.ofAll(newUrls);   // by address: the new hosts looked up side by side
      for (int k = 0; k < newUrls.size(); k++) {
        fresh.add(FrontierEntry.of(newUrls.get(k), keys.get(k), depth).withVia(via).withRedirectHops(redirectHops));
      }
      if (!fresh.isEmpty()) {
        frontier.offer(fresh);   // queued before recorded as seen: see the class comment
      }
    });
    counts[LinkVerdict.NEW.ordinal()] += fresh.size();
    counts[LinkVerdict.DUPLICATE.ordinal()] += candidates.size() - fresh.size();
    addToStats(counts);
    return fresh.size();
  }

  private void addToStats(int[] counts) {
    for (LinkVerdict verdict : LINK_VERDICTS) {
      if (counts[verdict.ordinal()] > 0) {
        stats.links(verdict, counts[verdict.ordinal()]);
      }
    }
  }

  /** The URL's normal form if it is in scope; null (and counted) if not. */
  private String admit(String raw, int depth, int[] counts) {
    String url;
    switch (normalizer.normalize(raw)) {
      case UrlNormalization.Accepted accepted -> url = accepted.url();
      case UrlNormalization.Rejected rejected -> {
        // The normalizer applies scope.max-url-length too (before and after normalizing): the
        // trap guard's own verdict, not a malformed URL.
        counts[(rejected.reason() == UrlNormalization.Reason.TOO_LONG ? LinkVerdict.TOO_LONG : LinkVerdict.REJECTED).ordinal()]++;
        return null;
      }
    }
    ScopeVerdict verdict = scope.check(url, depth);
    if (!verdict.inScope()) {
      counts[counted(verdict).ordinal()]++;
      return null;
    }
    return url;
  }

  /** The normal form of a seed, or null if the normalizer refuses it. */
  String normalizeSeed(String raw) {
    return normalizer.normalize(raw) instanceof UrlNormalization.Accepted a ? a.url() : null;
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
