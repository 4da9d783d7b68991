package dev.crawler.frontier;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

/**
 * A URL offered to the frontier.
 *
 * @param url the URL, already normalized and checked against scope and URL-seen
 * @param hostKey the politeness unit this URL is fetched under: usually its host name, or an
 *     IP address when the crawler groups hosts by IP. Delays and connection limits apply
 *     per host key.
 * @param depth links followed from a seed to reach this URL, in [0, 65535]
 * @param priority in [-128, 127], default 0: within one host, higher priorities are handed
 *     out first and equal priorities in the order offered. It does not reorder hosts: hosts
 *     are served by the time they may next be fetched, so no host starves.
 */
public record FrontierEntry(String url, String hostKey, int depth, int priority) {
  public static final int DEFAULT_PRIORITY = 0;

  public FrontierEntry {
    checkNotNull(url, "url");
    checkNotNull(hostKey, "hostKey");
    checkArgument(!url.isEmpty(), "url must not be empty");
    checkArgument(depth >= 0 && depth <= 0xFFFF, "depth (%s) must be in [0, 65535]", depth);
    checkArgument(priority >= -128 && priority <= 127, "priority (%s) must be in [-128, 127]", priority);
  }

  public static FrontierEntry of(String url, String hostKey, int depth) {
    return new FrontierEntry(url, hostKey, depth, DEFAULT_PRIORITY);
  }
}
