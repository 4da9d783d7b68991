package dev.crawler.parse;

import java.util.List;

/**
 * The URLs one sitemap file lists (sitemaps.org protocol). A {@code <urlset>} fills
 * {@code pageUrls}; a {@code <sitemapindex>} fills {@code sitemapUrls}, the child sitemaps to
 * fetch next. Both hold absolute http(s) URLs in document order, as the file spells them: the
 * crawl normalizes them and its scope decides which to keep.
 */
public record Sitemap(List<String> pageUrls, List<String> sitemapUrls) {

  public Sitemap {
    pageUrls = List.copyOf(pageUrls);
    sitemapUrls = List.copyOf(sitemapUrls);
  }
}
