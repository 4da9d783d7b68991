package dev.crawler.stats;

/**
 * What happened to one discovered URL (an outlink, a redirect target, a sitemap URL or a seed)
 * on its way to the frontier. Stored by name in stats.json: rename a value only with a reader
 * that maps the old name.
 */
public enum LinkVerdict {
  /** New to the crawl: queued in the frontier. */
  NEW,
  /** Already seen (queued or fetched before). */
  DUPLICATE,
  /** The normalizer refused it: unparseable, or not http(s). */
  REJECTED,
  /** Its host is outside the seeds' hosts or domains. */
  OFF_SITE,
  /** It matches none of the include patterns. */
  NOT_INCLUDED,
  /** It matches an exclude pattern. */
  EXCLUDED,
  /** Deeper than the maximum depth from a seed. */
  TOO_DEEP,
  /** Trap guard: longer than the maximum URL length. */
  TOO_LONG,
  /** Trap guard: the same path segment repeats too often. */
  REPEATED_SEGMENTS,
  /** Trap guard: more query parameters than allowed. */
  TOO_MANY_PARAMETERS
}
