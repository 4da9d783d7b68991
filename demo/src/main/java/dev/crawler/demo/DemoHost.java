package dev.crawler.demo;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One virtual host of the {@link DemoSite}: its name, how many pages it has, and what its
 * robots.txt says.
 *
 * @param name the host name, lower case ("www.example.com"); {@link DemoSite#dns()} maps it to 127.0.0.1
 * @param pages pages on the host; page 0 is the home page "/"
 * @param crawlDelay the robots.txt Crawl-delay, null for no Crawl-delay line
 * @param disallow path prefixes that robots.txt disallows for every agent ("/private/");
 *     pages link to a few URLs under each, which a polite crawl never requests
 * @param sitemap whether robots.txt names a /sitemap.xml; the sitemap lists every page,
 *     including a few that no page links to (reachable only through the sitemap)
 * @param seed whether the home page is one of {@link DemoSite#seeds()}; a host that is not a
 *     seed is reachable only by links from other hosts, so the crawl's scope decides whether
 *     it is fetched
 */
public record DemoHost(String name, int pages, Duration crawlDelay, List<String> disallow, boolean sitemap,
    boolean seed) {

  /** A host name as DNS spells it: labels of letters, digits and inner hyphens. */
  private static final Pattern HOST_NAME = Pattern.compile(
      "[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*");

  /** URLs one sitemap file may list (sitemaps.org protocol). */
  public static final int MAX_SITEMAP_URLS = 50_000;

  public DemoHost {
    if (name == null || !HOST_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("Host name (" + name + ") must be a lower-case DNS name such as www.example.com");
    }
    if (pages < 1) {
      throw new IllegalArgumentException("Pages of " + name + " (" + pages + ") must be >= 1");
    }
    if (crawlDelay != null && crawlDelay.isNegative()) {
      throw new IllegalArgumentException("Crawl delay of " + name + " (" + crawlDelay + ") must not be negative");
    }
    if (sitemap && pages > MAX_SITEMAP_URLS) {
      throw new IllegalArgumentException("Pages of " + name + " (" + pages + ") must be <= " + MAX_SITEMAP_URLS
          + " for it to have a sitemap: one sitemap file lists at most that many URLs (sitemaps.org)");
    }
    disallow = List.copyOf(disallow);
    for (String prefix : disallow) {
      // Wildcards would need RFC 9309 pattern matching; the site's own model of robots.txt
      // (DemoSite.expectedFetches) is a plain prefix match, so it accepts only plain prefixes.
      if (!prefix.startsWith("/") || prefix.chars().anyMatch(c -> c <= ' ' || c == '*' || c == '$' || c == '#' || c > '~')) {
        throw new IllegalArgumentException("Disallow prefix of " + name + " (" + prefix
            + ") must be a path such as /private/, without wildcards ('*', '$'), '#' or spaces");
      }
    }
  }

  /** A seed host. */
  public DemoHost(String name, int pages, Duration crawlDelay, List<String> disallow, boolean sitemap) {
    this(name, pages, crawlDelay, disallow, sitemap, true);
  }

  /** A plain seed host: no Crawl-delay, nothing disallowed, no sitemap. */
  public static DemoHost plain(String name, int pages) {
    return new DemoHost(name, pages, null, List.of(), false, true);
  }
}
