package dev.crawler.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.demo.LinkGraph.Kind;
import dev.crawler.demo.LinkGraph.Link;
import dev.crawler.demo.LinkGraph.RouteKind;
import dev.crawler.dedup.UrlNormalization;
import dev.crawler.dedup.UrlNormalizer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The site's structure and pages, without HTTP: the graph, the renderer and the oracle. */
class LinkGraphTest {
  private static final int PORT = 8123;
  private static final UrlNormalizer NORMALIZER = new UrlNormalizer(UrlNormalizer.Options.defaults());

  private final LinkGraph demo = new LinkGraph(DemoSiteSpec.demo(), PORT);
  private final PageRenderer renderer = new PageRenderer(demo);

  @Test
  void samePageGeneratedTwiceIsIdentical() {
    PageRenderer again = new PageRenderer(new LinkGraph(DemoSiteSpec.demo(), PORT));
    for (int h = 0; h < demo.hostCount(); h++) {
      for (int id : new int[] {0, 1, 9, demo.host(h).pages() - 1}) {
        assertThat(again.page(h, id)).isEqualTo(renderer.page(h, id));
      }
    }
  }

  @Test
  void anotherSeedGivesOtherPages() {
    PageRenderer other = new PageRenderer(new LinkGraph(DemoSiteSpec.demo().withSeed(7), PORT));
    assertThat(other.page(0, 5)).isNotEqualTo(renderer.page(0, 5));
  }

  @Test
  void pagesAreAboutTheRequestedSizeWithExactlyTheRequestedLinks() {
    for (int h = 0; h < demo.hostCount(); h++) {
      for (int id = 0; id < demo.host(h).pages(); id += 7) {
        byte[] html = renderer.page(h, id);
        assertThat(html.length).as("bytes of page %d of %s", id, demo.host(h).name())
            .isBetween(19_000, 21_000);
        assertThat(parse(h, id, html).select("a[href]")).hasSize(DemoSiteSpec.DEFAULT_LINKS_PER_PAGE);
      }
    }
  }

  @Test
  void pagesKeepEveryLinkWhenTheByteTargetIsSmall() {
    LinkGraph small = new LinkGraph(DemoSiteSpec.demo().withPageShape(30, 0), PORT);
    byte[] html = new PageRenderer(small).page(0, 3);
    assertThat(parse(0, 3, html).select("a[href]")).hasSize(30);
    assertThat(html.length).isLessThan(12_000);
  }

  @Test
  void pagesLookLikeDocumentationPages() {
    Document page = parse(0, 12, renderer.page(0, 12));
    assertThat(page.title()).endsWith(" \u2014 www.example.com");
    assertThat(page.select("nav.topnav a")).hasSize(LinkGraph.NAV_PAGES);
    assertThat(page.select("table.layout table.toc a")).isNotEmpty();
    assertThat(page.select("td.content table.params")).isNotEmpty();
    assertThat(page.select("link[rel=canonical]").attr("href"))
        .isEqualTo("http://www.example.com:" + PORT + "/docs/guides/page-12.html");
    assertThat(page.select("h2[id=section-1]")).hasSize(1);
  }

  @Test
  void everyHrefAsTheCrawlerNormalizesItIsTheGraphsTarget() {
    // The renderer writes hrefs, the oracle uses targets: the crawler's own normalizer must
    // turn the first into the second, or expectedFetches would promise what a crawl cannot do.
    for (int h = 0; h < demo.hostCount(); h++) {
      for (int id = 0; id < demo.host(h).pages(); id++) {
        List<Link> links = demo.links(h, id);
        List<Element> anchors = parse(h, id, renderer.page(h, id)).select("a[href]");
        Set<String> fromHtml = new HashSet<>();
        for (Element a : anchors) {
          String href = a.attr("href");
          if (href.startsWith("mailto:") || href.startsWith("javascript:")) {
            continue;
          }
          UrlNormalization normalized = NORMALIZER.normalize(a.absUrl("href"));
          assertThat(normalized).as(href).isInstanceOf(UrlNormalization.Accepted.class);
          fromHtml.add(((UrlNormalization.Accepted) normalized).url());
        }
        Set<String> fromGraph = new HashSet<>();
        for (Link link : links) {
          if (link.target() != null) {
            fromGraph.add(demo.url(link.host(), link.target()));
          }
        }
        assertThat(fromHtml).as("page %d of %s", id, demo.host(h).name()).isEqualTo(fromGraph);
      }
    }
  }

  @Test
  void everyPageHasEveryKindOfLinkItsHostAllows() {
    Set<Kind> kinds = new HashSet<>();
    demo.links(0, 10).forEach(link -> kinds.add(link.kind()));
    assertThat(kinds).containsExactlyInAnyOrder(Kind.values());

    kinds.clear();
    demo.links(2, 3).forEach(link -> kinds.add(link.kind())); // slow.example.com: no Disallow, page 3 has no print link
    assertThat(kinds).doesNotContain(Kind.DISALLOWED, Kind.PRINT).contains(Kind.REDIRECT, Kind.OTHER_HOST);
  }

  @Test
  void everyPageOfEveryHostIsReachableFromItsHomeOrItsSitemap() {
    Set<String> expected = demo.expectedFetches(host -> true);
    for (int h = 0; h < demo.hostCount(); h++) {
      for (int id = 0; id < demo.host(h).pages(); id++) {
        assertThat(expected).contains(demo.url(h, LinkGraph.pagePath(id)));
      }
    }
  }

  @Test
  void orphansAreOnlyInTheSitemap() {
    int www = demo.hostIndex("www.example.com");
    assertThat(demo.orphans(www)).isEqualTo(3);
    Set<String> linked = new HashSet<>();
    for (int h = 0; h < demo.hostCount(); h++) {
      for (int id = 0; id < demo.host(h).pages(); id++) {
        for (Link link : demo.links(h, id)) {
          if (link.host() == h && link.page() == id) {
            continue; // an orphan's "#top" and print links point at itself: they do not reach it
          }
          linked.add(demo.url(link.host(), String.valueOf(link.target())));
        }
      }
      for (int n = 0; n < demo.redirects(h); n++) {
        linked.add(demo.url(h, LinkGraph.pagePath(demo.redirectTarget(h, n))));
      }
    }
    for (int id = 117; id < 120; id++) {
      assertThat(linked).doesNotContain(demo.url(www, LinkGraph.pagePath(id)));
      assertThat(demo.sitemapPaths(www)).contains(LinkGraph.pagePath(id));
    }
    assertThat(linked).contains(demo.url(www, LinkGraph.pagePath(116)));
    assertThat(demo.orphans(demo.hostIndex("docs.example.com"))).isZero();
  }

  @Test
  void everyPageIsAFewHopsFromItsHome() {
    // The tree of children alone reaches page n in about log_8(n) hops: 5 for 5,000 pages.
    LinkGraph big = new LinkGraph(DemoSiteSpec.generated(1, 5_000), PORT);
    int[] parent = new int[5_000];
    java.util.Arrays.fill(parent, -1);
    for (int id = 0; id < 5_000; id++) {
      for (Link link : big.links(0, id)) {
        if (link.kind() == Kind.CHILD) {
          parent[link.page()] = id;
        }
      }
    }
    int deepest = 0;
    for (int id = 1; id < 5_000; id++) {
      int hops = 0;
      for (int page = id; page != 0; page = parent[page]) {
        assertThat(parent[page]).as("the page linking to page %d as a child", page).isNotNegative();
        hops++;
      }
      deepest = Math.max(deepest, hops);
    }
    assertThat(deepest).isEqualTo(5);
  }

  @Test
  void expectedFetchesOfTheExampleComScopeLeaveOutDisallowedUrlsAndOtherHosts() {
    Set<String> expected = demo.expectedFetches(host -> host.endsWith(".example.com"));
    String www = "http://www.example.com:" + PORT;
    String docs = "http://docs.example.com:" + PORT;
    assertThat(expected)
        .contains(www + "/robots.txt", www + "/sitemap.xml", www + "/", www + "/go/0", www + "/error",
            www + "/missing/0", www + "/?view=print", www + "/docs/api/page-3.html", www + "/docs/api/page-11.html",
            docs + "/robots.txt", "http://slow.example.com:" + PORT + "/robots.txt")
        .doesNotContain(docs + "/sitemap.xml")
        .allMatch(url -> !url.contains("www.example.org"), "no URL of www.example.org")
        .allMatch(url -> !url.startsWith(www + "/private/"), "no URL under /private/ of www.example.com")
        .allMatch(url -> !url.startsWith(docs + "/search"), "no URL under /search of docs.example.com")
        .allMatch(url -> !url.contains("utm_") && !url.contains("#"), "no tracking parameter or fragment");
    // Every page of the three hosts; 3 robots.txt, 1 sitemap, and the /go/, /missing/ and /error
    // URLs and the print views.
    assertThat(expected.stream().filter(url -> url.endsWith(".html") || url.endsWith(":" + PORT + "/")))
        .hasSize(120 + 80 + 10);
    assertThat(expected.stream().filter(url -> url.endsWith("?view=print"))).hasSize(12 + 8 + 1);
    assertThat(expected.stream().filter(url -> url.contains("/go/"))).hasSize(5 + 4 + 1);
  }

  @Test
  void expectedFetchesFollowLinksToAHostThatIsNotASeedWhenTheScopeAdmitsIt() {
    Set<String> all = demo.expectedFetches(host -> true);
    String org = "http://www.example.org:" + PORT;
    assertThat(all).contains(org + "/robots.txt", org + "/")
        .containsAll(demo.expectedFetches(host -> host.endsWith(".example.com")));
    assertThat(demo.expectedFetches(host -> host.equals("www.example.com")))
        .allMatch(url -> url.startsWith("http://www.example.com:"), "only www.example.com");
  }

  @ParameterizedTest(name = "{0}{1} -> {2} {3}")
  @CsvSource(delimiter = '|', textBlock = """
      # host             | target                              | route     | id
      www.example.com    | /                                   | PAGE      | 0
      www.example.com    | /?utm_source=x                      | PAGE      | 0
      www.example.com    | /docs/intro/page-8.html             | PAGE      | 8
      www.example.com    | /docs/intro/page-8.html?view=print  | PAGE      | 8
      www.example.com    | /docs/tutorial/page-119.html        | PAGE      | 119
      # a page only exists at its one path: other section, leading zero, past the last page
      www.example.com    | /docs/api/page-8.html               | NOT_FOUND | -1
      www.example.com    | /docs/intro/page-08.html            | NOT_FOUND | -1
      www.example.com    | /docs/intro/page-120.html           | NOT_FOUND | -1
      www.example.com    | /docs/intro/page-99999999999.html   | NOT_FOUND | -1
      www.example.com    | /docs/intro/page-0.html             | NOT_FOUND | -1
      www.example.com    | /docs/intro/page-8.htm              | NOT_FOUND | -1
      www.example.com    | /index.html                         | NOT_FOUND | -1
      # redirects: 117 linked pages / 20 = 5 of them
      www.example.com    | /go/0                               | REDIRECT  | 0
      www.example.com    | /go/4                               | REDIRECT  | 4
      www.example.com    | /go/5                               | NOT_FOUND | -1
      www.example.com    | /go/x                               | NOT_FOUND | -1
      www.example.com    | /missing/0                          | NOT_FOUND | -1
      www.example.com    | /error                              | ERROR     | -1
      www.example.com    | /error?retry=1                      | ERROR     | -1
      www.example.com    | /robots.txt                         | ROBOTS    | -1
      www.example.com    | /sitemap.xml                        | SITEMAP   | -1
      docs.example.com   | /sitemap.xml                        | NOT_FOUND | -1
      # robots.txt is advice: a crawler that ignores it gets a page
      www.example.com    | /private/notes-3.html               | DISALLOWED| -1
      www.example.com    | /private/                           | DISALLOWED| -1
      docs.example.com   | /search?q=fetch                     | DISALLOWED| -1
      docs.example.com   | /searching                          | DISALLOWED| -1
      docs.example.com   | /private/notes-3.html               | NOT_FOUND | -1
      """)
  void routesATargetToWhatTheServerServes(String host, String target, RouteKind kind, int id) {
    assertThat(demo.route(demo.hostIndex(host), target)).isEqualTo(new LinkGraph.Route(kind, id));
  }

  @ParameterizedTest(name = "from {0} to {1} is {2}")
  @CsvSource(delimiter = '|', textBlock = """
      # from                     | to                          | relative reference
      /                          | /                           | ./
      /                          | /docs/api/page-3.html       | docs/api/page-3.html
      /docs/api/page-11.html     | /docs/api/page-3.html       | page-3.html
      /docs/api/page-11.html     | /docs/faq/page-6.html       | ../faq/page-6.html
      /docs/api/page-11.html     | /                           | ../../
      /docs/api/page-11.html     | /docs/api/page-11.html      | page-11.html
      """)
  void relativeReferencesResolveBackToTheirTarget(String from, String to, String relative) {
    assertThat(LinkGraph.relative(from, to)).isEqualTo(relative);
    assertThat(URI.create("http://h" + from).resolve(relative)).isEqualTo(URI.create("http://h" + to));
  }

  @Test
  void redirectTargetsAreLinkedPagesAndManyPagesShareEachRedirect() {
    int www = demo.hostIndex("www.example.com");
    List<Integer> pointing = new ArrayList<>();
    for (int id = 0; id < 120; id++) {
      if (demo.links(www, id).stream().anyMatch(link -> "/go/0".equals(link.target()))) {
        pointing.add(id);
      }
      if (id < demo.redirects(www)) {
        assertThat(demo.redirectTarget(www, id)).isBetween(0, demo.linkedPages(www) - 1);
      }
    }
    assertThat(pointing.size()).isGreaterThan(20);
  }

  private Document parse(int h, int id, byte[] html) {
    return Jsoup.parse(new String(html, StandardCharsets.UTF_8), demo.url(h, LinkGraph.pagePath(id)));
  }
}
