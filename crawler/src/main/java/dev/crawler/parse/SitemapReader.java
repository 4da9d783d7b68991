package dev.crawler.parse;

import static com.google.common.base.Preconditions.checkArgument;

import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapIndex;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;
import crawlercommons.sitemaps.UnknownFormatException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a sitemap in any of the sitemaps.org formats: a {@code <urlset>} of pages or a
 * {@code <sitemapindex>} of further sitemaps, an RSS 2.0 or Atom 1.0 feed (its item links),
 * or a text file of one URL a line; plain or gzip'd. Anything else (an HTML error page, other
 * XML, text without a URL) is "not a sitemap". Thread-safe: each call uses its own
 * crawler-commons parser.
 *
 * <p>The parser is lenient (crawler-commons {@code strict = false}): a sitemap may list URLs
 * outside its own folder, or on other hosts, and they are returned; the crawl's scope decides.
 * A sitemap cut short (a truncated download, broken XML) keeps the URLs before the break.
 *
 * <p>The bytes decide what the body is, not the content type, which servers get wrong for
 * sitemaps (text/plain, application/octet-stream, text/html for .xml.gz).
 */
public final class SitemapReader {
  private static final Logger log = LoggerFactory.getLogger(SitemapReader.class);

  /** sitemaps.org: a sitemap is at most 50 MB uncompressed. More of a gzip'd body is not inflated (a gzip bomb). */
  static final int MAX_UNCOMPRESSED_BYTES = SiteMapParser.MAX_BYTES_ALLOWED;

  /** Root elements of the XML formats sitemaps.org accepts: sitemap, index, RSS 2.0, Atom 1.0 (and RSS 1.0's RDF). */
  private static final Set<String> SITEMAP_ROOTS = Set.of("urlset", "sitemapindex", "rss", "feed", "RDF");

  private final int maxUrlsPerSitemap;
  private final int maxUncompressedBytes;

  /** @param maxUrlsPerSitemap URLs kept per file, the first ones (sitemaps.org allows 50,000) */
  public SitemapReader(int maxUrlsPerSitemap) {
    this(maxUrlsPerSitemap, MAX_UNCOMPRESSED_BYTES);
  }

  /** For tests: a small inflation limit shows it applies without inflating 50 MB. */
  SitemapReader(int maxUrlsPerSitemap, int maxUncompressedBytes) {
    checkArgument(maxUrlsPerSitemap >= 1, "maxUrlsPerSitemap (%s) must be >= 1", maxUrlsPerSitemap);
    checkArgument(maxUncompressedBytes >= 1, "maxUncompressedBytes (%s) must be >= 1", maxUncompressedBytes);
    this.maxUrlsPerSitemap = maxUrlsPerSitemap;
    this.maxUncompressedBytes = maxUncompressedBytes;
  }

  /**
   * @param url the sitemap's URL (after redirects)
   * @param body the body as received, gzip'd or not
   * @param contentType the response's media type, or null; informative only, see the class comment
   * @return the sitemap's URLs, or empty if the body is not a sitemap
   */
  public Optional<Sitemap> read(String url, byte[] body, String contentType) {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(body, "body");
    try {
      if (isGzip(body) && !isSitemapContent(gunzip(body, PREFIX_BYTES))) {
        // Inflated whole, a gzip'd body of anything else (64 MB of zeros packs into 65 KB) took
        // up to 50 MB and more than 100 MB of heap to parse as one line of "text".
        log.debug("{} ({}) is gzip'd, but not a sitemap", url, contentType);
        return Optional.empty();
      }
      byte[] content = isGzip(body) ? gunzip(body, maxUncompressedBytes) : body;
      String root = XmlRoot.localName(content);
      String parseAs;
      if (root == null) {
        parseAs = "text/plain";          // not XML: perhaps a list of URLs; lines that are not URLs are dropped
      } else if (SITEMAP_ROOTS.contains(root)) {
        parseAs = "application/xml";
      } else {
        log.debug("{} ({}) is not a sitemap: root element {}", url, contentType, root);
        return Optional.empty();
      }
      SiteMapParser parser = new SiteMapParser(false, true);
      // Known extensions get their own handlers; without them an <image:loc> reads as a page's <loc>.
      parser.enableExtensions();
      parser.setURLFilter(new FirstHttpUrls(maxUrlsPerSitemap));
      return toSitemap(parser.parseSiteMap(parseAs, content, parseUrl(url)));
    } catch (UnknownFormatException | IOException | RuntimeException e) {
      log.debug("{} is not a readable sitemap: {}", url, e.toString());
      return Optional.empty();
    }
  }

  /**
   * Whether a body may be a sitemap whatever its Content-Type says: gzip'd, or XML with a
   * sitemap's root element. A page labelled text/html that passes is offered to {@link #read}
   * before the HTML parser (servers label sitemaps text/html too).
   */
  public static boolean mayBeSitemap(byte[] body) {
    if (isGzip(body)) {
      return isSitemapContent(gunzip(body, PREFIX_BYTES));
    }
    String root = XmlRoot.localName(body);
    return root != null && SITEMAP_ROOTS.contains(root);
  }

  /** Bytes of a gzip'd body inflated to tell whether it is a sitemap before inflating it whole. */
  private static final int PREFIX_BYTES = 8 * 1024;

  /** XML with a sitemap's root element, or text with a line that is an http(s) URL (a sitemap of one URL a line). */
  private static boolean isSitemapContent(byte[] prefix) {
    String root = XmlRoot.localName(prefix);
    if (root != null) {
      return SITEMAP_ROOTS.contains(root);
    }
    // A byte order mark and lines that are no URL (a comment, a title) may come first.
    return prefix.length > 0 && new String(prefix, java.nio.charset.StandardCharsets.ISO_8859_1).lines()
        .map(line -> line.replace("\u00EF\u00BB\u00BF", "").strip().toLowerCase(java.util.Locale.ROOT))
        .anyMatch(line -> line.startsWith("http://") || line.startsWith("https://"));
  }

  /**
   * Whether a URL names a gzip'd sitemap ({@code .xml.gz}, or {@code .gz} with "sitemap" in
   * its path): servers label those application/x-gzip or application/octet-stream, which the
   * crawl's accepted types leave out, so they are fetched whatever their type.
   */
  public static boolean isGzipSitemapUrl(String url) {
    okhttp3.HttpUrl parsed = okhttp3.HttpUrl.parse(url);
    if (parsed == null) {
      return false;
    }
    String path = parsed.encodedPath().toLowerCase(java.util.Locale.ROOT);
    return path.endsWith(".xml.gz") || path.endsWith(".gz") && path.contains("sitemap");
  }

  private Optional<Sitemap> toSitemap(AbstractSiteMap parsed) {
    List<String> pages = new ArrayList<>();
    List<String> children = new ArrayList<>();
    if (parsed instanceof SiteMapIndex index) {
      for (AbstractSiteMap child : index.getSitemaps()) {
        add(children, child.getUrl());
      }
    } else if (parsed instanceof SiteMap sitemap) {
      for (SiteMapURL page : sitemap.getSiteMapUrls()) {
        add(pages, page.getUrl());
      }
      if (pages.isEmpty() && sitemap.getType() == AbstractSiteMap.SitemapType.TEXT) {
        return Optional.empty();   // text without a single URL: an error page, not an empty sitemap
      }
    } else {
      return Optional.empty();
    }
    return Optional.of(new Sitemap(pages, children));
  }

  private void add(List<String> urls, URL url) {
    if (url != null && urls.size() < maxUrlsPerSitemap) {
      urls.add(url.toExternalForm());
    }
  }

  private static boolean isGzip(byte[] body) {
    return body.length >= 2 && (body[0] & 0xFF) == 0x1F && (body[1] & 0xFF) == 0x8B;
  }

  /** Inflates at most {@code limit} bytes; a cut or corrupt stream keeps what came before the damage. */
  private static byte[] gunzip(byte[] body, int limit) {
    ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(limit, body.length * 4L));
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
      int n;
      while (out.size() < limit && (n = in.read(buffer)) > 0) {
        out.write(buffer, 0, Math.min(n, limit - out.size()));
      }
    } catch (IOException e) {
      log.debug("gzip'd sitemap damaged after {} bytes: {}", out.size(), e.toString());
    }
    return out.toByteArray();
  }

  @SuppressWarnings("deprecation") // crawler-commons takes a java.net.URL; new URL accepts what URI refuses
  private static URL parseUrl(String url) throws MalformedURLException {
    return new URL(url);
  }

  /**
   * The URL filter crawler-commons applies to each {@code <loc>}: passes the first {@code max}
   * absolute http(s) URLs and drops the rest, so a huge sitemap does not fill the heap with
   * entries that would be cut anyway. One instance per parse.
   */
  private static final class FirstHttpUrls implements Function<String, String> {
    private final int max;
    private int passed;

    FirstHttpUrls(int max) {
      this.max = max;
    }

    @Override
    public String apply(String loc) {
      if (passed >= max || !isHttpUrl(loc)) {
        return null;
      }
      passed++;
      return loc;
    }

    private static boolean isHttpUrl(String loc) {
      String scheme = loc.length() > 8 ? loc.substring(0, 8).toLowerCase(Locale.ROOT) : "";
      if (!scheme.startsWith("http://") && !scheme.startsWith("https://")) {
        return false;
      }
      try {
        URL url = new URI(loc).toURL(); // the check crawler-commons makes next
        return !url.getHost().isEmpty();
      } catch (URISyntaxException | MalformedURLException | IllegalArgumentException e) {
        return false;
      }
    }
  }
}
