package dev.crawler.frontier;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import dev.crawler.frontier.internal.QueuedUrl;

/**
 * A URL offered to the frontier, with what the crawl log needs to know about how it was found.
 *
 * @param url the URL, already normalized and checked against scope and URL-seen
 * @param hostKey the politeness unit this URL is fetched under: usually its host name, or an
 *     IP address when the crawler groups hosts by IP. Delays and connection limits apply
 *     per host key.
 * @param depth links followed from a seed to reach this URL, in [0, 65535]
 * @param priority in [-128, 127], default 0: within one host, higher priorities are handed
 *     out first and equal priorities in the order offered. It does not reorder hosts: hosts
 *     are served by the time they may next be fetched, so no host starves.
 * @param via the URL of the page this one was found on (or that redirected to it); null for a
 *     seed. An empty string means the same and becomes null, so an entry and its stored copy
 *     are equal. Only for the log: the frontier keeps at most {@link #MAX_VIA_BYTES} bytes of
 *     it (UTF-8, cut at a character boundary) rather than refuse a long one.
 * @param redirectHops redirects followed to reach this URL, in [0, 255]: a redirect target is
 *     offered with its source's hops + 1, and the crawler stops at its own limit
 */
public record FrontierEntry(String url, String hostKey, int depth, int priority, String via, int redirectHops) {
  public static final int DEFAULT_PRIORITY = 0;
  /** Links followed from a seed that a stored URL can carry: its depth is 16 bits. */
  public static final int MAX_DEPTH = 0xFFFF;
  public static final int MAX_REDIRECT_HOPS = QueuedUrl.MAX_REDIRECT_HOPS;
  /** The longest via kept, in UTF-8 bytes; a longer one is cut to fit when stored. */
  public static final int MAX_VIA_BYTES = QueuedUrl.MAX_VIA_BYTES;

  public FrontierEntry {
    checkNotNull(url, "url");
    checkNotNull(hostKey, "hostKey");
    checkArgument(!url.isEmpty(), "url must not be empty");
    checkArgument(depth >= 0 && depth <= MAX_DEPTH, "depth (%s) must be in [0, %s]", depth, MAX_DEPTH);
    checkArgument(priority >= -128 && priority <= 127, "priority (%s) must be in [-128, 127]", priority);
    checkArgument(redirectHops >= 0 && redirectHops <= MAX_REDIRECT_HOPS, "redirectHops (%s) must be in [0, %s]",
        redirectHops, MAX_REDIRECT_HOPS);
    if (via != null && via.isEmpty()) {
      via = null;
    }
  }

  /** An entry found without a via and without redirects: a seed, or a caller that does not track them. */
  public FrontierEntry(String url, String hostKey, int depth, int priority) {
    this(url, hostKey, depth, priority, null, 0);
  }

  public static FrontierEntry of(String url, String hostKey, int depth) {
    return new FrontierEntry(url, hostKey, depth, DEFAULT_PRIORITY);
  }

  /** This entry found on (or redirected from) {@code via}; null or empty for none. */
  public FrontierEntry withVia(String via) {
    return new FrontierEntry(url, hostKey, depth, priority, via, redirectHops);
  }

  /** This entry reached after {@code redirectHops} redirects, in [0, 255]. */
  public FrontierEntry withRedirectHops(int redirectHops) {
    return new FrontierEntry(url, hostKey, depth, priority, via, redirectHops);
  }
}
