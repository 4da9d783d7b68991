package dev.crawler.scope;

/** Which hosts a crawl stays on, given its seeds. */
public enum ScopeMode {
  /** Only the seeds' hosts (any scheme, any port): www.example.com, not example.com. */
  SAME_HOST,
  /**
   * The seeds' registered domains (public suffix list, private suffixes included): a seed on
   * www.example.co.uk admits news.example.co.uk, a seed on foo.github.io does not admit
   * bar.github.io. A host with no public suffix (an IP address, localhost, site.test) is its own
   * domain.
   */
  SAME_DOMAIN,
  /** Any http(s) host. */
  ANY
}
