package dev.crawler.demo;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/** A host's robots.txt and sitemap.xml, from its {@link DemoHost} spec and the link graph. */
final class SiteFiles {
  private SiteFiles() {}

  /**
   * One group for every agent: the host's Disallow lines (an empty "Disallow:" allowing all
   * when it has none), its Crawl-delay in seconds, and a Sitemap line if it has a sitemap.
   */
  static byte[] robotsTxt(LinkGraph graph, int h) {
    DemoHost host = graph.host(h);
    StringBuilder sb = new StringBuilder(256);
    sb.append("# robots.txt of ").append(host.name()).append(", a host of the crawler's demo site\n")
        .append("User-agent: *\n");
    if (host.disallow().isEmpty()) {
      sb.append("Disallow:\n");
    }
    for (String prefix : host.disallow()) {
      sb.append("Disallow: ").append(prefix).append('\n');
    }
    if (host.crawlDelay() != null) {
      // Seconds, fractional if need be ("0.5"): the unit every parser reads.
      sb.append("Crawl-delay: ")
          .append(BigDecimal.valueOf(host.crawlDelay().toMillis(), 3).stripTrailingZeros().toPlainString())
          .append('\n');
    }
    if (host.sitemap()) {
      sb.append('\n').append("Sitemap: ").append(graph.url(h, "/sitemap.xml")).append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** A sitemaps.org urlset of every page of the host, orphans included. */
  static byte[] sitemapXml(LinkGraph graph, int h) {
    StringBuilder sb = new StringBuilder(128 + 100 * graph.host(h).pages());
    sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    int day = 0;
    for (String path : graph.sitemapPaths(h)) {
      sb.append("  <url><loc>").append(graph.url(h, path)).append("</loc><lastmod>2024-05-")
          .append(day % 28 < 9 ? "0" : "").append(day % 28 + 1).append("</lastmod></url>\n");
      day++;
    }
    sb.append("</urlset>\n");
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }
}
