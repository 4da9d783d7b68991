/**
 * The crawl's URL value: {@link dev.crawler.url.CrawlUrl}, a normalized http(s) URL with its
 * pieces found once, carried from scope to queue key, robots.txt, fetch and records.
 */
package dev.crawler.url;
