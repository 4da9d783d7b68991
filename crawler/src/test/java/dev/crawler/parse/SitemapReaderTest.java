package dev.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class SitemapReaderTest {
  private static final String URL = "https://example.com/blog/sitemap.xml";
  private static final List<String> URLSET_PAGES = List.of("https://example.com/blog/",
      "https://example.com/blog/post?id=1&lang=en", "https://example.com/blog/cdata", "https://example.com/outside",
      "https://other.example/elsewhere", "https://example.com/last");

  private final SitemapReader reader = new SitemapReader(50_000);

  @Test
  void aUrlsetGivesItsPagesInOrderIncludingOnesOutsideItsFolder() {
    Optional<Sitemap> sitemap = reader.read(URL, fixture("urlset.xml"), "application/xml");
    assertThat(sitemap).contains(new Sitemap(URLSET_PAGES, List.of()));
  }

  @Test
  void aSitemapIndexGivesItsChildSitemaps() {
    assertThat(reader.read("https://example.com/sitemap_index.xml", fixture("sitemapindex.xml"), "text/xml"))
        .contains(new Sitemap(List.of(), List.of("https://example.com/sitemap-posts.xml.gz",
            "https://example.com/sitemap-pages.xml")));
  }

  @Test
  void aGzippedSitemapIsReadWhateverItsContentType() {
    byte[] gzipped = gzip(fixture("urlset.xml"));
    for (String contentType : Arrays.asList("application/gzip", "application/x-gzip", "application/octet-stream",
        "text/html", null)) {
      assertThat(reader.read(URL + ".gz", gzipped, contentType)).as(contentType)
          .map(Sitemap::pageUrls).contains(URLSET_PAGES);
    }
  }

  @Test
  void theBytesDecideNotTheContentType() {
    assertThat(reader.read(URL, fixture("urlset.xml"), "text/plain")).isPresent();
    assertThat(reader.read(URL, fixture("not-a-sitemap.html"), "application/xml")).isEmpty();
  }

  @Test
  void htmlOtherXmlAndTextWithoutUrlsAreNotSitemaps() {
    assertThat(reader.read(URL, fixture("not-a-sitemap.html"), "text/html")).isEmpty();
    assertThat(reader.read(URL, bytes("<?xml version='1.0'?><catalog><urlset/></catalog>"), "application/xml")).isEmpty();
    assertThat(reader.read(URL, gzip(fixture("not-a-sitemap.html")), "application/gzip")).isEmpty();
    assertThat(reader.read(URL, bytes("Not found.\nSorry about that.\n"), "text/plain")).isEmpty();
    assertThat(reader.read(URL, new byte[0], "application/xml")).isEmpty();
  }

  /** sitemaps.org "Other sitemap formats": RSS 2.0, Atom 1.0 and text files are sitemaps too. */
  @Test
  void feedsGiveTheirItemLinks() {
    assertThat(reader.read(URL, fixture("feed.rss"), "application/rss+xml").map(Sitemap::pageUrls))
        .contains(List.of("https://example.com/item"));
    assertThat(reader.read(URL, bytes("<feed xmlns='http://www.w3.org/2005/Atom'><title>t</title>"
        + "<entry><title>a</title><link href='https://example.com/a'/></entry>"
        + "<entry><title>b</title><link href='https://example.com/b'/></entry></feed>"), "application/atom+xml")
        .map(Sitemap::pageUrls)).contains(List.of("https://example.com/a", "https://example.com/b"));
  }

  @Test
  void aTextSitemapGivesItsUrlLinesAndDropsTheRest() {
    assertThat(reader.read(URL.replace(".xml", ".txt"),
        bytes("https://example.com/a\n\nnot a url\nftp://example.com/f\n  https://example.com/b  \n"), "text/plain")
        .map(Sitemap::pageUrls)).contains(List.of("https://example.com/a", "https://example.com/b"));
    assertThat(reader.read(URL + ".gz", gzip(bytes("https://example.com/z\n")), null).map(Sitemap::pageUrls))
        .contains(List.of("https://example.com/z"));
  }

  @Test
  void aByteOrderMarkCommentsAndANamespacePrefixAreFine() {
    byte[] body = bytes("\uFEFF \n<?xml version=\"1.0\"?>\n<!-- generated -->\n"
        + "<sm:urlset xmlns:sm=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
        + "<sm:url><sm:loc>https://example.com/a</sm:loc></sm:url></sm:urlset>");
    assertThat(reader.read(URL, body, "application/xml")).map(Sitemap::pageUrls).contains(List.of("https://example.com/a"));
  }

  @Test
  void aSitemapCutShortKeepsTheUrlsBeforeTheCut() {
    String xml = new String(fixture("urlset.xml"), StandardCharsets.UTF_8);
    byte[] cut = bytes(xml.substring(0, xml.indexOf("<url><loc>https://example.com/outside")));
    assertThat(reader.read(URL, cut, "application/xml")).map(Sitemap::pageUrls)
        .contains(URLSET_PAGES.subList(0, 3));
    byte[] gzipped = gzip(fixture("urlset.xml"));
    byte[] cutGzip = Arrays.copyOf(gzipped, gzipped.length - 40);
    assertThat(reader.read(URL, cutGzip, "application/gzip")).hasValueSatisfying(
        sitemap -> assertThat(URLSET_PAGES).startsWith(sitemap.pageUrls().toArray(String[]::new)));
  }

  @Test
  void onlyTheFirstUrlsUpToTheCapAreKept() {
    StringBuilder xml = new StringBuilder("<urlset>");
    for (int i = 0; i < 1_000; i++) {
      xml.append("<url><loc>https://example.com/p/").append(i).append("</loc></url>");
    }
    Sitemap sitemap = new SitemapReader(10).read(URL, bytes(xml.append("</urlset>").toString()), null).orElseThrow();
    assertThat(sitemap.pageUrls()).hasSize(10).startsWith("https://example.com/p/0").endsWith("https://example.com/p/9");
  }

  /** A gzip bomb: 100 URLs in well under a kilobyte of gzip; only the first 600 bytes are inflated. */
  @Test
  void aGzippedSitemapIsInflatedOnlyUpToTheSizeLimit() {
    StringBuilder xml = new StringBuilder("<urlset>");
    for (int i = 0; i < 100; i++) {
      xml.append("<url><loc>https://example.com/p/").append(i).append("</loc></url>");
    }
    Sitemap sitemap = new SitemapReader(1_000, 600).read(URL, gzip(bytes(xml.append("</urlset>").toString())), null)
        .orElseThrow();
    assertThat(sitemap.pageUrls()).hasSizeBetween(10, 20).startsWith("https://example.com/p/0");
  }

  @Test
  void aDoctypeOrEntitiesNeverReachTheFileSystem() {
    byte[] xxe = bytes("<?xml version=\"1.0\"?><!DOCTYPE urlset [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
        + "<urlset><url><loc>https://example.com/&x;</loc></url></urlset>");
    assertThat(reader.read(URL, xxe, "application/xml")).isEmpty();
  }

  /** Web input never throws: random bytes, random bytes behind a urlset start, random gzip. */
  @Test
  void readingNeverThrowsOnJunk() {
    SplittableRandom random = new SplittableRandom(20261203);
    for (int i = 0; i < 300; i++) {
      byte[] junk = new byte[random.nextInt(3_000)];
      random.nextBytes(junk);
      byte[] body = switch (i % 3) {
        case 0 -> junk;
        case 1 -> concat(bytes("<urlset><url><loc>https://example.com/"), junk);
        default -> concat(new byte[] {0x1F, (byte) 0x8B}, junk);
      };
      Optional<Sitemap> sitemap = reader.read(URL, body, null);
      sitemap.ifPresent(s -> assertThat(s.pageUrls()).allMatch(url -> url.startsWith("https://example.com/")));
    }
  }

  private static byte[] fixture(String name) {
    try (InputStream in = SitemapReaderTest.class.getResourceAsStream("sitemaps/" + name)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] gzip(byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "{0}: {1}")
  @org.junit.jupiter.params.provider.CsvSource({
      "http://a.test/sitemap.xml.gz, true",
      "http://a.test/SITEMAP.XML.GZ?x=1, true",
      "http://a.test/feeds/sitemap-1.gz, true",
      "http://a.test/dump.tar.gz, false",
      "http://sitemap.test/dump.tar.gz, false",
      "http://a.test/sitemap.xml, false",
      "http://a.test/page?f=sitemap.xml.gz, false",
      "http://a.test, false"})
  void gzipSitemapUrlsAreKnownByTheirPath(String url, boolean expected) {
    assertThat(SitemapReader.isGzipSitemapUrl(url)).isEqualTo(expected);
  }

  @Test
  void aBodyMayBeASitemapByItsBytesNotItsType() throws IOException {
    byte[] urlset = "<?xml version='1.0'?><urlset><url><loc>http://a.test/</loc></url></urlset>"
        .getBytes(StandardCharsets.UTF_8);
    assertThat(SitemapReader.mayBeSitemap(urlset)).isTrue();
    ByteArrayOutputStream packed = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(packed)) {
      gz.write(urlset);
    }
    assertThat(SitemapReader.mayBeSitemap(packed.toByteArray())).as("gzip'd").isTrue();
    assertThat(SitemapReader.mayBeSitemap(new byte[] {0x1f, (byte) 0x8b, 8, 0})).as("a broken gzip header").isFalse();
    assertThat(SitemapReader.mayBeSitemap("<!DOCTYPE html><html><body>x".getBytes(StandardCharsets.UTF_8))).isFalse();
    assertThat(SitemapReader.mayBeSitemap("<?xml version='1.0'?><svg/>".getBytes(StandardCharsets.UTF_8))).isFalse();
  }

  /** 64 MB of zeros packs into 65 KB: inflated whole and parsed as text it took more than 100 MB of heap. */
  @Test
  void aGzipBodyThatIsNotASitemapIsNotInflatedWhole() throws IOException {
    ByteArrayOutputStream packed = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(packed)) {
      byte[] zeros = new byte[1 << 20];
      for (int i = 0; i < 64; i++) {
        gz.write(zeros);
      }
    }
    byte[] bomb = packed.toByteArray();
    assertThat(SitemapReader.mayBeSitemap(bomb)).isFalse();
    long before = allocated();
    assertThat(new SitemapReader(50_000).read("http://a.test/sitemap.xml.gz", bomb, "application/octet-stream")).isEmpty();
    assertThat(allocated() - before).as("bytes allocated to find out").isLessThan(8L << 20);
  }

  @Test
  void aGzipdListOfUrlsIsStillASitemap() throws IOException {
    ByteArrayOutputStream packed = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(packed)) {
      gz.write(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});   // a byte order mark first
      gz.write("\n  http://a.test/1\nhttp://a.test/2\n".getBytes(StandardCharsets.US_ASCII));
    }
    assertThat(SitemapReader.mayBeSitemap(packed.toByteArray())).isTrue();
    assertThat(new SitemapReader(50_000).read("http://a.test/urls.txt.gz", packed.toByteArray(), null).orElseThrow()
        .pageUrls()).containsExactly("http://a.test/1", "http://a.test/2");
  }

  private static long allocated() {
    return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
        .getCurrentThreadAllocatedBytes();
  }
}
