package dev.crawler.robots;

import static dev.crawler.robots.HostRobots.Availability.ALLOW_ALL;
import static dev.crawler.robots.HostRobots.Availability.FOUND;
import static dev.crawler.robots.HostRobots.Availability.UNAVAILABLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.crawler.fetch.FetchResult;
import dev.crawler.fetch.Fetcher;
import dev.crawler.fetch.FetcherOptions;
import dev.crawler.fetch.NameToLoopbackDns;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okio.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RobotsCacheTest {
  private static final Duration EXPIRY = Duration.ofHours(24);
  private static final Duration UNAVAILABLE_RETRY = Duration.ofMinutes(10);

  private final MockWebServer server = new MockWebServer();
  /** Responses by "host:path"; a request for anything else gets a 404. */
  private final Map<String, Function<RecordedRequest, MockResponse>> routes = new ConcurrentHashMap<>();
  private final MovableClock clock = new MovableClock(Instant.parse("2025-01-01T00:00:00Z"));
  private final List<FetchResult> recorded = new CopyOnWriteArrayList<>();
  private Fetcher fetcher;

  @BeforeEach
  void start() throws IOException {
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        String host = request.getHeaders().get("Host").replaceFirst(":\\d+$", "");
        Function<RecordedRequest, MockResponse> route = routes.get(host + request.getUrl().encodedPath());
        return route != null ? route.apply(request) : new MockResponse.Builder().code(404).build();
      }
    });
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    fetcher = new Fetcher(new FetcherOptions("testbot/1.0", Duration.ofSeconds(2), Duration.ofSeconds(2),
        Duration.ofSeconds(5), 1 << 20, 4, List.of("text/html"), true, NameToLoopbackDns.loopback()));
  }

  @AfterEach
  void stop() {
    fetcher.close();
    server.close();
  }

  private RobotsCache cache() {
    return cache(100);
  }

  private RobotsCache cache(int maxHosts) {
    return new RobotsCache(fetcher, "TestBot", maxHosts, EXPIRY, UNAVAILABLE_RETRY, clock, recorded::add);
  }

  private String url(String host, String path) {
    return "http://" + host + ":" + server.getPort() + path;
  }

  private void serve(String hostAndPath, MockResponse response) {
    routes.put(hostAndPath, request -> response);
  }

  private static MockResponse robots(String text) {
    return new MockResponse.Builder().setHeader("Content-Type", "text/plain").body(text).build();
  }

  private static MockResponse status(int code) {
    return new MockResponse.Builder().code(code).build();
  }

  private static MockResponse redirect(String location) {
    return new MockResponse.Builder().code(301).setHeader("Location", location).build();
  }

  private static String fixture(String name) throws IOException {
    try (InputStream in = RobotsCacheTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  // ---------------------------------------------------------------- what robots.txt says

  @ParameterizedTest(name = "{0} allowed: {1}")
  @CsvSource(textBlock = """
      # our group of news-site-robots.txt, not the catch-all one (RFC 9309 2.2.1)
      /,                                  true
      /drafts/,                           false
      /drafts/secret,                     false
      /drafts/published,                  true
      /article?session=42,                false
      /article?id=42,                     true
      # the catch-all group's rules do not apply to us
      /search,                            true
      /private/,                          true
      /report.pdf,                        true
      # robots.txt itself is always allowed
      /robots.txt,                        true
      """)
  void aFoundRobotsTxtAppliesOurAgentsGroup(String path, boolean allowed) throws IOException {
    serve("site.test/robots.txt", robots(fixture("news-site-robots.txt")));

    HostRobots robots = cache().forUrl(url("site.test", "/"));

    assertThat(robots.availability()).isEqualTo(FOUND);
    assertThat(robots.isAllowed(url("site.test", path))).isEqualTo(allowed);
  }

  @Test
  void aFoundRobotsTxtGivesOurCrawlDelayAndEverySitemap() throws IOException {
    serve("site.test/robots.txt", robots(fixture("news-site-robots.txt")));

    HostRobots robots = cache().forUrl(url("site.test", "/page"));

    assertThat(robots.crawlDelay()).isEqualTo(Duration.ofSeconds(2));
    assertThat(robots.sitemaps()).containsExactly("https://www.example.com/sitemap-index.xml",
        "https://www.example.com/news-sitemap.xml");
    assertThat(robots.fetchedAt()).isEqualTo(clock.instant());
    assertThat(robots.cause()).isNull();
  }

  @Test
  void aRobotsTxtWithoutCrawlDelayHasNone() {
    serve("site.test/robots.txt", robots("User-agent: *\nDisallow: /tmp/\n"));

    HostRobots robots = cache().forUrl(url("site.test", "/"));

    assertThat(robots.crawlDelay()).isNull();
    assertThat(robots.isAllowed(url("site.test", "/tmp/x"))).isFalse();
  }

  @Test
  void aUserAgentLineWithAVersionStillMatchesOurProductToken() {
    serve("site.test/robots.txt", robots("User-agent: *\nDisallow:\n\nUser-agent: TestBot/2.1\nDisallow: /mine/\n"));

    HostRobots robots = cache().forUrl(url("site.test", "/"));

    assertThat(robots.isAllowed(url("site.test", "/mine/x"))).isFalse();
  }

  @ParameterizedTest(name = "HTTP {0} -> {1}")
  @CsvSource(textBlock = """
      # RFC 9309 2.3.1.3: 4xx means there is no robots.txt
      400, ALLOW_ALL
      401, ALLOW_ALL
      403, ALLOW_ALL
      404, ALLOW_ALL
      410, ALLOW_ALL
      # 429 asks us to slow down: not a licence to crawl everything
      429, UNAVAILABLE
      # RFC 9309 2.3.1.4: 5xx means disallow everything for now
      500, UNAVAILABLE
      502, UNAVAILABLE
      503, UNAVAILABLE
      """)
  void theStatusOfRobotsTxtDecidesItsAvailability(int code, HostRobots.Availability expected) {
    serve("site.test/robots.txt", status(code));

    HostRobots robots = cache().forUrl(url("site.test", "/page"));

    assertThat(robots.availability()).isEqualTo(expected);
    assertThat(robots.isAllowed(url("site.test", "/page"))).isEqualTo(expected == ALLOW_ALL);
    assertThat(robots.cause()).isEqualTo(expected == UNAVAILABLE ? "HTTP " + code : null);
  }

  @Test
  void anHtmlPageServedAsRobotsTxtAllowsAll() {
    serve("site.test/robots.txt", new MockResponse.Builder().setHeader("Content-Type", "text/html")
        .body("<html><body><h1>Welcome!</h1><p>Disallow: nothing here</p></body></html>").build());

    HostRobots robots = cache().forUrl(url("site.test", "/"));

    assertThat(robots.availability()).isEqualTo(FOUND);
    assertThat(robots.isAllowed(url("site.test", "/anything"))).isTrue();
  }

  @Test
  void anUnreachableHostIsUnavailable() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      closedPort = socket.getLocalPort();
    }

    HostRobots robots = cache().forUrl("http://gone.test:" + closedPort + "/page");

    assertThat(robots.availability()).isEqualTo(UNAVAILABLE);
    assertThat(robots.cause()).startsWith("CONNECTION_REFUSED");
    assertThat(robots.isAllowed("http://gone.test:" + closedPort + "/page")).isFalse();
  }

  @Test
  void aHugeRobotsTxtIsReadUpTo512KibAndDoesNotThrow() {
    StringBuilder text = new StringBuilder("User-agent: *\nDisallow: /early/\n");
    while (text.length() < 2 * 1024 * 1024) {
      text.append("# filler line to make the file large, as some sites do by accident\n");
    }
    text.append("Disallow: /late/\n"); // past the first 512 KiB: not read
    serve("site.test/robots.txt", robots(text.toString()));

    HostRobots robots = cache().forUrl(url("site.test", "/"));

    assertThat(robots.availability()).isEqualTo(FOUND);
    assertThat(robots.isAllowed(url("site.test", "/early/x"))).isFalse();
    assertThat(robots.isAllowed(url("site.test", "/late/x"))).isTrue();
    assertThat(recorded).singleElement().satisfies(r -> {
      assertThat(r.truncated()).isTrue();
      assertThat(r.body()).hasSize(512 * 1024);
    });
  }

  @Test
  void aBinaryRobotsTxtParsesLenientlyAndDoesNotThrow() {
    byte[] noise = new byte[64 * 1024];
    new Random(9309).nextBytes(noise);
    serve("site.test/robots.txt", new MockResponse.Builder().setHeader("Content-Type", "image/png")
        .body(new Buffer().write(noise)).build());

    HostRobots robots = cache().forUrl(url("site.test", "/"));

    assertThat(robots.availability()).isEqualTo(FOUND);
    assertThat(robots.isAllowed(url("site.test", "/page"))).isTrue();
  }

  // ---------------------------------------------------------------- redirects

  @Test
  void aRelativeRedirectIsFollowedAndEveryHopIsRecorded() {
    serve("site.test/robots.txt", redirect("/robots-live.txt"));
    serve("site.test/robots-live.txt", robots("User-agent: *\nDisallow: /x/\n"));
    RobotsCache cache = cache();

    HostRobots robots = cache.forUrl(url("site.test", "/"));

    assertThat(robots.availability()).isEqualTo(FOUND);
    assertThat(robots.isAllowed(url("site.test", "/x/1"))).isFalse();
    assertThat(recorded).extracting(FetchResult::url)
        .containsExactly(url("site.test", "/robots.txt"), url("site.test", "/robots-live.txt"));
    assertThat(cache.fetches()).isEqualTo(2);
  }

  @Test
  void aRedirectToAnotherHostIsFollowedAndItsRulesApplyToTheFirstHost() {
    serve("site.test/robots.txt", redirect(url("cdn.test", "/shared/robots.txt")));
    serve("cdn.test/shared/robots.txt", robots("User-agent: *\nDisallow: /y/\n"));

    HostRobots robots = cache().forUrl(url("site.test", "/"));

    assertThat(robots.availability()).isEqualTo(FOUND);
    assertThat(robots.isAllowed(url("site.test", "/y/1"))).isFalse();
  }

  @ParameterizedTest(name = "{0} redirects -> {1}")
  @CsvSource(textBlock = """
      # RFC 9309 2.3.1.2: follow at least five; past that, "unavailable", which 2.3.1.3 reads as allow-all
      1, FOUND
      5, FOUND
      6, ALLOW_ALL
      """)
  void redirectsAreFollowedUpToFive(int redirects, HostRobots.Availability expected) {
    serve("site.test/robots.txt", redirect("/hop1"));
    for (int hop = 1; hop < redirects; hop++) {
      serve("site.test/hop" + hop, redirect("/hop" + (hop + 1)));
    }
    serve("site.test/hop" + redirects, robots("User-agent: *\nDisallow: /z/\n"));
    RobotsCache cache = cache();

    HostRobots robots = cache.forUrl(url("site.test", "/"));

    assertThat(robots.availability()).isEqualTo(expected);
    assertThat(cache.fetches()).isEqualTo(Math.min(redirects + 1, 6));
    if (expected == ALLOW_ALL) {
      assertThat(robots.isAllowed(url("site.test", "/z/1"))).as("a loop gives no rules").isTrue();
    }
  }

  // ---------------------------------------------------------------- caching

  @Test
  void oneFetchServesEveryUrlOfAHost() {
    serve("site.test/robots.txt", robots("User-agent: *\nDisallow: /no/\n"));
    RobotsCache cache = cache();

    for (int i = 0; i < 50; i++) {
      cache.forUrl(url("site.test", "/page" + i + "?q=" + i));
    }

    assertThat(cache.fetches()).isEqualTo(1);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void anotherHostPortOrSchemeIsAnotherRobotsTxt() {
    serve("site.test/robots.txt", robots("User-agent: *\nDisallow: /\n"));
    serve("other.test/robots.txt", robots("User-agent: *\nDisallow:\n"));
    RobotsCache cache = cache();

    assertThat(cache.forUrl(url("site.test", "/a")).isAllowed(url("site.test", "/a"))).isFalse();
    assertThat(cache.forUrl(url("other.test", "/a")).isAllowed(url("other.test", "/a"))).isTrue();
    assertThat(cache.forUrl(url("SITE.test", "/b")).availability()).isEqualTo(FOUND); // same host, other case
    assertThat(cache.fetches()).isEqualTo(2);
  }

  @Test
  void aRobotsTxtIsFetchedAgainAfterItExpires() {
    serve("site.test/robots.txt", robots("User-agent: *\nDisallow: /old/\n"));
    RobotsCache cache = cache();
    cache.forUrl(url("site.test", "/"));

    serve("site.test/robots.txt", robots("User-agent: *\nDisallow: /new/\n"));
    clock.advance(EXPIRY.minusSeconds(1));
    assertThat(cache.forUrl(url("site.test", "/")).isAllowed(url("site.test", "/old/1"))).isFalse();
    assertThat(cache.fetches()).isEqualTo(1);

    clock.advance(Duration.ofSeconds(1));
    HostRobots fresh = cache.forUrl(url("site.test", "/"));
    assertThat(cache.fetches()).isEqualTo(2);
    assertThat(fresh.isAllowed(url("site.test", "/old/1"))).isTrue();
    assertThat(fresh.isAllowed(url("site.test", "/new/1"))).isFalse();
    assertThat(fresh.fetchedAt()).isEqualTo(clock.instant());
  }

  @Test
  void anUnavailableRobotsTxtIsFetchedAgainAfterTheRetryDelayNotTheExpiry() {
    serve("site.test/robots.txt", status(503));
    RobotsCache cache = cache();
    assertThat(cache.forUrl(url("site.test", "/")).availability()).isEqualTo(UNAVAILABLE);

    clock.advance(UNAVAILABLE_RETRY.minusSeconds(1));
    assertThat(cache.forUrl(url("site.test", "/")).availability()).isEqualTo(UNAVAILABLE);
    assertThat(cache.fetches()).isEqualTo(1);

    serve("site.test/robots.txt", robots("User-agent: *\nDisallow:\n"));
    clock.advance(Duration.ofSeconds(1));
    HostRobots recovered = cache.forUrl(url("site.test", "/"));
    assertThat(recovered.availability()).isEqualTo(FOUND);
    assertThat(recovered.isAllowed(url("site.test", "/page"))).isTrue();
    assertThat(cache.fetches()).isEqualTo(2);
  }

  /** A store in a map, for the cache's side of the contract; DiskRobotsStoreTest has the disk's. */
  private static final class MapStore implements RobotsStore {
    final Map<String, StoredRobots> kept = new ConcurrentHashMap<>();

    @Override
    public java.util.Optional<StoredRobots> get(String hostKey) {
      return java.util.Optional.ofNullable(kept.get(hostKey));
    }

    @Override
    public void put(String hostKey, StoredRobots answer) {
      kept.put(hostKey, answer);
    }

    @Override
    public void close() {
    }
  }

  /** A host that left memory comes back from the store, parsed again; an expired one is fetched again. */
  @Test
  void aHostThatLeftMemoryIsReadBackFromTheStoreUntilItsAnswerExpires() {
    serve("a.test/robots.txt", robots("User-agent: *\nDisallow: /a/\nCrawl-delay: 3\n"));
    serve("b.test/robots.txt", status(404));
    MapStore store = new MapStore();
    RobotsCache cache = new RobotsCache(fetcher, "TestBot", 1, EXPIRY, UNAVAILABLE_RETRY, clock, recorded::add, store);
    HostRobots first = cache.forUrl(url("a.test", "/"));
    cache.forUrl(url("b.test", "/"));   // a leaves memory
    assertThat(cache.fetches()).isEqualTo(2);

    clock.advance(Duration.ofHours(1));
    HostRobots again = cache.forUrl(url("a.test", "/"));
    assertThat(cache.fetches()).as("read back, not fetched").isEqualTo(2);
    assertThat(cache.storeHits()).isEqualTo(1);
    assertThat(again.availability()).isEqualTo(FOUND);
    assertThat(again.isAllowed(url("a.test", "/a/1"))).isFalse();
    assertThat(again.isAllowed(url("a.test", "/b/1"))).isTrue();
    assertThat(again.crawlDelay()).isEqualTo(Duration.ofSeconds(3));
    assertThat(again.fetchedAt()).as("the answer's age is kept").isEqualTo(first.fetchedAt());
    assertThat(cache.forUrl(url("b.test", "/")).availability()).as("a 404 is kept too").isEqualTo(ALLOW_ALL);
    assertThat(cache.fetches()).isEqualTo(2);

    clock.advance(EXPIRY);
    cache.forUrl(url("a.test", "/"));
    assertThat(cache.fetches()).as("expired in the store: fetched again").isEqualTo(3);
  }

  @Test
  void anUnavailableRobotsTxtIsNotKeptInTheStore() {
    serve("a.test/robots.txt", status(503));
    MapStore store = new MapStore();
    RobotsCache cache = new RobotsCache(fetcher, "TestBot", 1, EXPIRY, UNAVAILABLE_RETRY, clock, recorded::add, store);
    assertThat(cache.forUrl(url("a.test", "/")).availability()).isEqualTo(UNAVAILABLE);
    assertThat(store.kept).isEmpty();
  }

  @Test
  void theLeastRecentlyUsedHostGoesWhenTheCacheIsFull() {
    for (String host : List.of("a.test", "b.test", "c.test")) {
      serve(host + "/robots.txt", robots("User-agent: *\nDisallow:\n"));
    }
    RobotsCache cache = cache(2);
    cache.forUrl(url("a.test", "/"));
    cache.forUrl(url("b.test", "/"));
    cache.forUrl(url("a.test", "/")); // a is now more recent than b

    cache.forUrl(url("c.test", "/")); // b goes
    assertThat(cache.size()).isEqualTo(2);
    assertThat(cache.fetches()).isEqualTo(3);

    cache.forUrl(url("a.test", "/"));
    assertThat(cache.fetches()).as("a was kept").isEqualTo(3);
    cache.forUrl(url("b.test", "/"));
    assertThat(cache.fetches()).as("b was fetched again").isEqualTo(4);
  }

  @Test
  void callersAskingForTheSameHostAtOnceCauseOneFetch() throws Exception {
    CountDownLatch requested = new CountDownLatch(1);
    routes.put("site.test/robots.txt", request -> {
      requested.countDown();
      return robots("User-agent: *\nDisallow: /slow/\n").newBuilder().headersDelay(300, TimeUnit.MILLISECONDS).build();
    });
    RobotsCache cache = cache();
    List<Future<HostRobots>> answers = new ArrayList<>();

    try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
      answers.add(callers.submit(() -> cache.forUrl(url("site.test", "/first"))));
      assertThat(requested.await(2, TimeUnit.SECONDS)).isTrue(); // the fetch is under way
      for (int i = 0; i < 20; i++) {
        String path = "/page" + i;
        answers.add(callers.submit(() -> cache.forUrl(url("site.test", path))));
      }
    }

    for (Future<HostRobots> answer : answers) {
      assertThat(answer.get().availability()).isEqualTo(FOUND);
    }
    assertThat(cache.fetches()).isEqualTo(1);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aFailingOnFetchDoesNotLeaveTheHostStuck() {
    serve("site.test/robots.txt", robots("User-agent: *\nDisallow:\n"));
    boolean[] fail = {true};
    RobotsCache cache = new RobotsCache(fetcher, "testbot", 10, EXPIRY, UNAVAILABLE_RETRY, clock, result -> {
      if (fail[0]) {
        throw new IllegalStateException("recorder broke");
      }
    });

    assertThatIllegalStateException()
        .isThrownBy(() -> cache.forUrl(url("site.test", "/")));
    fail[0] = false;

    assertThat(cache.forUrl(url("site.test", "/")).availability()).isEqualTo(FOUND);
  }

  // ---------------------------------------------------------------- programmer errors

  @Test
  void anAgentNameThatIsNotAProductTokenIsRefusedNamingIt() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new RobotsCache(fetcher, "bot2", 10, EXPIRY, UNAVAILABLE_RETRY, clock, r -> {}))
        .withMessageContaining("(bot2)");
  }

  @Test
  void aUrlThatIsNotHttpIsRefusedNamingIt() {
    assertThatIllegalArgumentException().isThrownBy(() -> cache().forUrl("ftp://site.test/"))
        .withMessageContaining("(ftp://site.test/)");
  }

  /** A clock the test moves by hand. */
  private static final class MovableClock implements InstantSource {
    private volatile Instant now;

    MovableClock(Instant start) {
      this.now = start;
    }

    void advance(Duration duration) {
      now = now.plus(duration);
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
