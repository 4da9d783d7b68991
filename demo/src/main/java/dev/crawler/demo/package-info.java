/**
 * The built-in demo web site: several virtual hosts of generated documentation pages, served
 * on 127.0.0.1 by the JDK's HTTP server, for the {@code demo} command, the end-to-end crawl
 * tests and the crawl benchmark.
 *
 * <p>How it fits together. {@link dev.crawler.demo.DemoSiteSpec} says what the site is
 * (hosts, pages, robots.txt rules, page shape, seed). {@code LinkGraph} turns the spec into
 * the site's structure and is the only place that does: the URLs of each host, every page's
 * links, every redirect's target, and the routing of a request target. {@code PageRenderer}
 * writes a page's HTML from the graph's links and its own text generator; {@code SiteFiles}
 * writes robots.txt and sitemap.xml. {@link dev.crawler.demo.DemoSite} serves all of it and
 * records each request in a {@link dev.crawler.demo.RequestLog}. {@link
 * dev.crawler.demo.DemoSite#expectedFetches} walks the same graph, so the oracle and the
 * served site cannot disagree; a test crawls the site over HTTP with a small reference crawler
 * and checks that they do not.
 *
 * <p>What a page holds, and why: about 19 KB and 78 links (the averages of real documentation
 * pages, which set the parse cost); a tree of child links, so every page is a few hops from
 * its home; random links over the host and the site; and one or a few of each case a crawler
 * must handle: tracking parameters and fragments (normalization), robots-disallowed paths, a
 * host that is not a seed (scope), /go/n redirects shared by many pages (URL-seen), 404s, a
 * 500, a print view with a query that is kept, mailto: and javascript:. A host with a sitemap
 * has a few pages that no link reaches.
 *
 * <p>Determinism: a page is a function of (spec seed, host name, page id, port); nothing
 * depends on time, order of requests or the JVM.
 */
package dev.crawler.demo;
