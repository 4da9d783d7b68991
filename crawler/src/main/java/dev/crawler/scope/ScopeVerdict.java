package dev.crawler.scope;

/** Why a URL is or is not crawled; the crawl counts each. */
public enum ScopeVerdict {
  IN_SCOPE,
  /** Not on a seed's host or domain, or not an http(s) URL with a host at all. */
  OFF_SITE,
  /** The include patterns are set and none matches. */
  NOT_INCLUDED,
  /** An exclude pattern matches. */
  EXCLUDED,
  /** Further from a seed than the depth limit. */
  TOO_DEEP,
  /** Longer than the URL length limit (a trap guard). */
  TOO_LONG,
  /** One path segment occurs more often than allowed, as in /a/b/a/b/a/b/a/b (a trap guard). */
  REPEATED_SEGMENTS,
  /** More query parameters than allowed (a trap guard). */
  TOO_MANY_PARAMETERS;

  public boolean inScope() {
    return this == IN_SCOPE;
  }
}
