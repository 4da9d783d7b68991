package dev.crawler.intake;

import dev.crawler.frontier.FrontierEntry;
import dev.crawler.url.CrawlUrl;

/**
 * A discovered URL the intake let in: normalized, in scope, with the queue it joins.
 *
 * @param queueKey the frontier queue (host, domain or address) whose politeness it shares, and
 *     whose partition it belongs to
 * @param depth links from a seed
 * @param via the page it was found on, null for a seed
 * @param redirectHops redirects that led to it, 0 for a link
 */
public record AdmittedUrl(CrawlUrl url, String queueKey, int depth, String via, int redirectHops) {
  /** As the frontier stores it. */
  public FrontierEntry toFrontierEntry() {
    return FrontierEntry.of(url.url(), queueKey, depth).withVia(via).withRedirectHops(redirectHops);
  }
}
