package dev.crawler.scope;

import dev.crawler.url.CrawlUrl;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Decides which discovered URLs the crawl follows. Thread-safe: seeds may be added while
 * workers check links. Every link of every page passes here, so the checks run cheapest
 * first and the first failing one gives the verdict: depth, length, host, query parameters,
 * repeated path segments, then the include and exclude patterns.
 *
 * <p>URLs are expected normalized (lower-case host, no default port, no fragment); anything
 * else still gets a verdict, never an exception. A URL that is not http(s) with a host and a
 * valid port is {@link ScopeVerdict#OFF_SITE}: a filter that cannot read a URL keeps it out.
 */
public final class Scope {
  private final ScopeRules rules;
  /** SAME_HOST: the seeds' hosts. SAME_DOMAIN: the seeds' hosts, a shortcut past the suffix lookup. */
  private final Set<String> seedHosts = ConcurrentHashMap.newKeySet();
  private final Set<String> seedDomains = ConcurrentHashMap.newKeySet();

  public Scope(ScopeRules rules) {
    this.rules = Objects.requireNonNull(rules, "rules");
  }

  /**
   * Puts a seed's host (SAME_HOST) or registered domain (SAME_DOMAIN) in scope.
   *
   * @throws IllegalArgumentException if the seed is not an http(s) URL with a host: seeds are
   *     normalized before they get here
   */
  public void addSeed(String normalizedUrl) {
    CrawlUrl parts = CrawlUrl.of(normalizedUrl);
    if (parts == null) {
      throw new IllegalArgumentException("Seed is not an http(s) URL with a host and a valid port: " + normalizedUrl);
    }
    seedHosts.add(parts.host());
    seedDomains.add(parts.registeredDomain());
  }

  /** The verdict for a URL found {@code depth} links away from a seed. */
  public ScopeVerdict check(String normalizedUrl, int depth) {
    if (depth > rules.maxDepth()) {
      return ScopeVerdict.TOO_DEEP;
    }
    if (normalizedUrl == null || normalizedUrl.length() > rules.maxUrlLength()) {
      return normalizedUrl == null ? ScopeVerdict.OFF_SITE : ScopeVerdict.TOO_LONG;
    }
    CrawlUrl url = CrawlUrl.of(normalizedUrl);
    return url == null ? ScopeVerdict.OFF_SITE : check(url, depth);
  }

  /** The verdict for a parsed URL found {@code depth} links away from a seed. */
  public ScopeVerdict check(CrawlUrl url, int depth) {
    if (depth > rules.maxDepth()) {
      return ScopeVerdict.TOO_DEEP;
    }
    if (url.url().length() > rules.maxUrlLength()) {
      return ScopeVerdict.TOO_LONG;
    }
    if (!onSite(url)) {
      return ScopeVerdict.OFF_SITE;
    }
    if (url.queryParameters() > rules.maxQueryParameters()) {
      return ScopeVerdict.TOO_MANY_PARAMETERS;
    }
    if (url.repeatsASegmentMoreThan(rules.maxRepeatedSegments())) {
      return ScopeVerdict.REPEATED_SEGMENTS;
    }
    if (!rules.include().isEmpty() && !anyFinds(rules.include(), url.url())) {
      return ScopeVerdict.NOT_INCLUDED;
    }
    if (anyFinds(rules.exclude(), url.url())) {
      return ScopeVerdict.EXCLUDED;
    }
    return ScopeVerdict.IN_SCOPE;
  }

  /**
   * The URL's host key: lower-case host, plus ":port" when the port is not the scheme's default
   * ("example.com", "example.com:8080", "[::1]:8443"). Page limits per host count by it.
   *
   * @throws IllegalArgumentException if the URL is not an http(s) URL with a host
   */
  public String hostKey(String normalizedUrl) {
    return CrawlUrl.parse(normalizedUrl).hostKey();
  }

  private boolean onSite(CrawlUrl parts) {
    return switch (rules.mode()) {
      case ANY -> true;
      case SAME_HOST -> seedHosts.contains(parts.host());
      case SAME_DOMAIN -> seedHosts.contains(parts.host()) || seedDomains.contains(parts.registeredDomain());
    };
  }

  private static boolean anyFinds(Iterable<Pattern> patterns, String url) {
    for (Pattern pattern : patterns) {
      if (pattern.matcher(url).find()) {
        return true;
      }
    }
    return false;
  }
}
