/**
 * Which URLs a crawl follows and how many pages it fetches. {@link dev.crawler.scope.Scope}
 * gives each discovered, normalized URL a {@link dev.crawler.scope.ScopeVerdict}: on the seeds'
 * hosts or domains, within depth, past the trap guards (length, repeated path segments, query
 * parameters) and the include/exclude patterns. {@link dev.crawler.scope.PageBudget} counts the
 * pages fetched against the crawl's and each host's limit. Both are shared by all workers.
 */
package dev.crawler.scope;
