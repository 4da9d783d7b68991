package dev.crawler.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;
import dev.crawler.dedup.UrlNormalization;
import dev.crawler.dedup.UrlNormalizer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The demo site over real HTTP on 127.0.0.1, driven by OkHttp through the site's own DNS. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DemoSiteTest {
  private DemoSite site;
  private OkHttpClient client;
  private String www;

  @BeforeAll
  void start() throws IOException {
    site = DemoSite.start(DemoSiteSpec.demo());
    client = new OkHttpClient.Builder().dns(site.dns()).followRedirects(false)
        .connectionPool(new ConnectionPool(16, 1, TimeUnit.MINUTES)).build();
    www = site.origin("www.example.com");
  }

  @BeforeEach
  void forgetEarlierRequests() {
    site.requests().clear();
  }

  @AfterAll
  void stop() {
    site.close();
    client.dispatcher().executorService().shutdown();
    client.connectionPool().evictAll();
  }

  record Fetched(int status, String contentType, String location, String body) {}

  private Fetched get(String url) throws IOException {
    try (Response response = client.newCall(new okhttp3.Request.Builder().url(url).build()).execute()) {
      return new Fetched(response.code(), response.header("Content-Type"), response.header("Location"),
          response.body().string());
    }
  }

  @Test
  void seedsAreTheHomePagesOfTheSeedHostsOnTheSitesPort() {
    int port = site.port();
    assertThat(site.seeds()).containsExactly("http://www.example.com:" + port + "/",
        "http://docs.example.com:" + port + "/", "http://slow.example.com:" + port + "/");
  }

  @Test
  void servesEachHostByItsHostHeader() throws IOException {
    Fetched home = get(www + "/");
    assertThat(home.status()).isEqualTo(200);
    assertThat(home.contentType()).isEqualTo("text/html; charset=utf-8");
    assertThat(Jsoup.parse(home.body()).title()).isEqualTo("www.example.com documentation \u2014 www.example.com");
    assertThat(Jsoup.parse(get(site.origin("docs.example.com") + "/").body()).title())
        .startsWith("docs.example.com documentation");
    assertThat(home.body().getBytes(StandardCharsets.UTF_8))
        .isEqualTo(new PageRenderer(new LinkGraph(DemoSiteSpec.demo(), site.port())).page(0, 0));
  }

  @Test
  void dnsResolvesTheSitesHostsToLoopbackAndNoOtherName() throws UnknownHostException {
    assertThat(site.dns().lookup("www.example.org")).extracting(InetAddress::getHostAddress)
        .containsExactly("127.0.0.1");
    assertThat(site.dns().lookup("WWW.Example.COM")).extracting(InetAddress::getHostAddress)
        .containsExactly("127.0.0.1");
    assertThatThrownBy(() -> site.dns().lookup("www.example.net")).isInstanceOf(UnknownHostException.class)
        .hasMessageContaining("www.example.net is not a host of the demo site");
  }

  @Test
  void redirectsErrorsAndMissingPagesAnswerWithTheirStatus() throws IOException {
    Fetched go = get(www + "/go/0");
    assertThat(go.status()).isEqualTo(301);
    assertThat(go.location()).startsWith(www + "/");
    assertThat(get(go.location()).status()).isEqualTo(200);
    assertThat(get(www + "/error").status()).isEqualTo(500);
    assertThat(get(www + "/missing/0").status()).isEqualTo(404);
    assertThat(get(www + "/docs/api/page-8.html").status()).isEqualTo(404);
    assertThat(get(www + "/private/notes-1.html").status()).isEqualTo(200);
    assertThat(get(site.origin("docs.example.com") + "/sitemap.xml").status()).isEqualTo(404);
  }

  @Test
  void anUnknownHostHeaderIsNotFound() throws IOException {
    // OkHttp connects to 127.0.0.1 directly, and the Host header names no host of the site.
    Fetched fetched = get("http://127.0.0.1:" + site.port() + "/");
    assertThat(fetched.status()).isEqualTo(404);
    assertThat(fetched.body()).contains("no host named '127.0.0.1'");
    assertThat(site.requests().all()).extracting(RequestLog.Request::host).containsExactly("127.0.0.1");
  }

  @Test
  void headAnswersWithoutABodyAndOtherMethodsAreNotAllowed() throws IOException {
    try (Response head = client.newCall(new okhttp3.Request.Builder().url(www + "/").head().build()).execute()) {
      assertThat(head.code()).isEqualTo(200);
      assertThat(head.body().bytes()).isEmpty();
    }
    okhttp3.RequestBody empty = okhttp3.RequestBody.create(new byte[0]);
    try (Response post = client.newCall(new okhttp3.Request.Builder().url(www + "/").post(empty).build()).execute()) {
      assertThat(post.code()).isEqualTo(405);
      assertThat(post.header("Allow")).isEqualTo("GET, HEAD");
    }
  }

  @ParameterizedTest(name = "Host: {0} is {1}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
      www.example.com:8080   | www.example.com
      www.example.com        | www.example.com
      WWW.Example.COM:8080   | www.example.com
      " www.example.com "    | www.example.com
      [::1]:8080             | [::1]
      [::1]                  | [::1]
      ""                     | ""
      """)
  void theHostHeaderNamesTheHostWithoutItsPort(String header, String host) {
    assertThat(DemoSite.hostName(header)).isEqualTo(host);
  }

  @Test
  void aMissingHostHeaderNamesNoHost() {
    assertThat(DemoSite.hostName(null)).isEmpty();
  }

  @Test
  void robotsTxtSaysWhatEachHostsSpecSays() throws IOException {
    SimpleRobotRulesParser parser = new SimpleRobotRulesParser();
    Map<String, BaseRobotRules> rules = new HashMap<>();
    for (DemoHost host : site.spec().hosts()) {
      String robots = site.origin(host.name()) + "/robots.txt";
      Fetched fetched = get(robots);
      assertThat(fetched.status()).isEqualTo(200);
      assertThat(fetched.contentType()).isEqualTo("text/plain; charset=utf-8");
      rules.put(host.name(), parser.parseContent(robots, fetched.body().getBytes(StandardCharsets.UTF_8),
          "text/plain", List.of("democrawler")));
    }
    assertThat(get(www + "/robots.txt").body()).isEqualTo("""
        # robots.txt of www.example.com, a host of the crawler's demo site
        User-agent: *
        Disallow: /private/

        Sitemap: %s/sitemap.xml
        """.formatted(www));
    assertThat(rules.get("www.example.com").isAllowed(www + "/private/notes-1.html")).isFalse();
    assertThat(rules.get("www.example.com").isAllowed(www + "/docs/api/page-3.html")).isTrue();
    assertThat(rules.get("www.example.com").getSitemaps()).containsExactly(www + "/sitemap.xml");
    assertThat(rules.get("docs.example.com").isAllowed(site.origin("docs.example.com") + "/search?q=x")).isFalse();
    assertThat(rules.get("slow.example.com").getCrawlDelay()).isEqualTo(1_000L);
    assertThat(rules.get("www.example.org").isAllowed(site.origin("www.example.org") + "/private/x")).isTrue();
    assertThat(rules.get("www.example.org").getCrawlDelay()).isEqualTo(BaseRobotRules.UNSET_CRAWL_DELAY);
  }

  @Test
  void aFractionalCrawlDelayIsWrittenInSeconds() {
    LinkGraph graph = new LinkGraph(new DemoSiteSpec(List.of(
        new DemoHost("a.example.com", 1, Duration.ofMillis(250), List.of(), false))), 80);
    assertThat(new String(SiteFiles.robotsTxt(graph, 0), StandardCharsets.UTF_8)).contains("\nCrawl-delay: 0.25\n");
  }

  @Test
  void theSitemapListsEveryPageOfItsHostOrphansIncluded() throws Exception {
    Fetched fetched = get(www + "/sitemap.xml");
    assertThat(fetched.contentType()).isEqualTo("application/xml; charset=utf-8");
    AbstractSiteMap parsed = new SiteMapParser().parseSiteMap("text/xml",
        fetched.body().getBytes(StandardCharsets.UTF_8), URI.create(www + "/sitemap.xml").toURL());
    List<String> urls = ((SiteMap) parsed).getSiteMapUrls().stream().map(u -> u.getUrl().toString()).toList();
    assertThat(urls).hasSize(120).contains(www + "/", www + "/docs/tutorial/page-119.html")
        .doesNotHaveDuplicates();
  }

  @Test
  void theRequestLogCountsEveryRequestWithItsStatus() throws IOException {
    for (int i = 0; i < 3; i++) {
      get(www + "/");
    }
    get(www + "/go/1?utm_source=x");
    get(www + "/error");
    assertThat(site.requests().countsByUrl()).containsExactly(
        Map.entry(www + "/", 3L), Map.entry(www + "/go/1?utm_source=x", 1L), Map.entry(www + "/error", 1L));
    assertThat(site.requests().all()).extracting(RequestLog.Request::status).containsExactly(200, 200, 200, 301, 500);
    assertThat(site.requests().all()).allMatch(r -> r.endNanos() >= r.startNanos());
  }

  @Test
  void requestsOneAtATimeWithAPauseShowNoConcurrencyAndAtLeastThePause() throws Exception {
    for (int i = 0; i < 4; i++) {
      get(site.origin("slow.example.com") + "/");
      // The log stamps a request's end before its last byte goes out, so the gap it measures
      // is at least this pause (a stamp after the write once gave 29.5 ms for 30 ms).
      Thread.sleep(30);
    }
    assertThat(site.requests().maxConcurrent("slow.example.com")).isEqualTo(1);
    assertThat(site.requests().minGap("slow.example.com")).isGreaterThanOrEqualTo(Duration.ofMillis(30));
  }

  @Test
  void manyClientsAtOnceAreAllServedAndLogged() throws Exception {
    int threads = 8;
    int each = 40;
    try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
      List<Future<Integer>> oks = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        oks.add(pool.submit(() -> {
          int ok = 0;
          for (int i = 0; i < each; i++) {
            ok += get(site.origin("docs.example.com") + LinkGraph.pagePath(i % 80)).status() == 200 ? 1 : 0;
          }
          return ok;
        }));
      }
      for (Future<Integer> ok : oks) {
        assertThat(ok.get()).isEqualTo(each);
      }
    }
    assertThat(site.requests().size()).isEqualTo(threads * each);
    assertThat(site.requests().maxConcurrent("docs.example.com")).isBetween(1, threads);
  }

  /**
   * A small, correct crawler (robots, sitemaps, redirects, the crawler's normalizer, no
   * politeness delays) walks the site over HTTP; what the server logged must be exactly what
   * {@link DemoSite#expectedFetches} promised, each URL once. This ties the served HTML, the
   * routes and the oracle together.
   */
  @Test
  void aCorrectCrawlRequestsExactlyTheExpectedFetches() throws Exception {
    Set<String> expected = site.expectedFetches(host -> host.endsWith(".example.com"));
    new ReferenceCrawl(host -> host.endsWith(".example.com")).run(site.seeds());
    Map<String, Long> counts = site.requests().countsByUrl();
    assertThat(counts.keySet()).isEqualTo(expected);
    assertThat(counts.values()).containsOnly(1L);
    assertThat(expected).hasSizeGreaterThan(250);
  }

  private final class ReferenceCrawl {
    private final java.util.function.Predicate<String> inScope;
    private final UrlNormalizer normalizer = new UrlNormalizer(UrlNormalizer.Options.defaults());
    private final SimpleRobotRulesParser robotsParser = new SimpleRobotRulesParser();
    private final Map<String, BaseRobotRules> robots = new HashMap<>();
    private final Set<String> seen = new HashSet<>();
    private final ArrayDeque<String> queue = new ArrayDeque<>();

    ReferenceCrawl(java.util.function.Predicate<String> inScope) {
      this.inScope = inScope;
    }

    void run(List<String> seeds) throws Exception {
      seeds.forEach(this::offer);
      while (!queue.isEmpty()) {
        String url = queue.poll();
        Fetched fetched = get(url);
        if (fetched.status() == 301) {
          offer(fetched.location());
        } else if (fetched.status() == 200) {
          for (Element a : Jsoup.parse(fetched.body(), url).select("a[href]")) {
            offer(a.absUrl("href"));
          }
        }
      }
    }

    private void offer(String raw) {
      if (!(normalizer.normalize(raw) instanceof UrlNormalization.Accepted(String url))) {
        return; // mailto:, javascript:
      }
      String host = URI.create(url).getHost();
      if (!inScope.test(host)) {
        return;
      }
      BaseRobotRules rules = robots.get(host);
      if (rules == null) {
        rules = readRobotsAndSitemaps(url, host);
      }
      if (rules.isAllowed(url) && seen.add(url)) {
        queue.add(url);
      }
    }

    private BaseRobotRules readRobotsAndSitemaps(String url, String host) {
      try {
        String robotsUrl = url.substring(0, url.indexOf('/', "http://".length())) + "/robots.txt";
        BaseRobotRules rules = robotsParser.parseContent(robotsUrl,
            get(robotsUrl).body().getBytes(StandardCharsets.UTF_8), "text/plain", List.of("democrawler"));
        robots.put(host, rules);
        for (String sitemap : rules.getSitemaps()) {
          AbstractSiteMap parsed = new SiteMapParser().parseSiteMap("text/xml",
              get(sitemap).body().getBytes(StandardCharsets.UTF_8), URI.create(sitemap).toURL());
          for (SiteMapURL entry : ((SiteMap) parsed).getSiteMapUrls()) {
            offer(entry.getUrl().toString());
          }
        }
        return rules;
      } catch (Exception e) {
        throw new AssertionError("robots.txt or sitemap of " + host, e);
      }
    }
  }

  @Test
  void measuresPagesPerSecondServedToEightThreads() throws Exception {
    try (DemoSite big = DemoSite.start(DemoSiteSpec.generated(20, 1_000))) {
      OkHttpClient bench = client.newBuilder().dns(big.dns())
          .connectionPool(new ConnectionPool(16, 1, TimeUnit.MINUTES)).build();
      int threads = 8;
      int warmUp = 2_000;
      int measured = 4_000;
      run(bench, big, threads, warmUp);
      AtomicLong bytes = new AtomicLong();
      long start = System.nanoTime();
      bytes.set(run(bench, big, threads, measured));
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf("DemoSite served %,d pages to %d threads in %.2f s: %,.0f pages/s, %.1f MB/s%n",
          measured, threads, seconds, measured / seconds, bytes.get() / seconds / 1e6);
      assertThat(big.requests().size()).isEqualTo(warmUp + measured);
    }
  }

  /** Requests {@code total} pages spread over every host, from {@code threads} threads; returns body bytes. */
  private static long run(OkHttpClient bench, DemoSite big, int threads, int total) throws Exception {
    List<String> origins = big.seeds();
    AtomicLong bytes = new AtomicLong();
    try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        done.add(pool.submit(() -> {
          for (int i = first; i < total; i += threads) {
            String url = origins.get(i % origins.size()) + LinkGraph.pagePath(i % 1_000).substring(1);
            try (Response response = bench.newCall(new okhttp3.Request.Builder().url(url).build()).execute()) {
              bytes.addAndGet(response.body().bytes().length);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    }
    return bytes.get();
  }
}
