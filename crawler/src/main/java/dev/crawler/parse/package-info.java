/**
 * Reading fetched bodies for more URLs to crawl: {@link dev.crawler.parse.PageParser} reads an
 * HTML page (links, canonical, meta robots, title) in one streaming pass with jsoup;
 * {@link dev.crawler.parse.SitemapReader} reads a sitemaps.org urlset or sitemap index, plain or
 * gzip'd, with crawler-commons.
 *
 * <p>Both take bytes straight from the fetcher and never throw on what a server sent: a body that
 * is not what it claims gives an empty result. URLs come out absolute and http(s) but not
 * normalized; the crawl normalizes them, then asks its scope.
 */
package dev.crawler.parse;
