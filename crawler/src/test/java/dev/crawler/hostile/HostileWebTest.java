package dev.crawler.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.Crawl;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.crawl.StopReason;
import dev.crawler.dedup.UrlNormalization;
import dev.crawler.dedup.UrlNormalizer;
import dev.crawler.record.CrawlLogEntry;
import dev.crawler.record.CrawlLogReader;
import dev.crawler.record.CrawlOutcome;
import dev.crawler.stats.LinkVerdict;
import dev.crawler.stats.StatsSnapshot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * One crawl of {@link HostileSite}, whose seed page links to every misbehaviour in
 * {@code misbehaviours.csv}, with short timeouts and a 1 MB content cap. The crawl must end on
 * its own (FINISHED, well before its max-duration), give each offender the outcome the table
 * says, count it, and go on with the offender's host where the host still answers. What the
 * server saw is the judge of what was requested.
 */
class HostileWebTest {
  /** fetch.max-content-bytes. */
  static final long CAP = 1024 * 1024;
  static final int MAX_DEPTH = 6;
  static final int MAX_URL_LENGTH = 2048;
  static final Duration MAX_DURATION = Duration.ofSeconds(90);
  static final Duration MAX_CRAWL_DELAY = Duration.ofMillis(300);
  static final int MAX_RETRIES = dev.crawler.visit.VisitPipeline.MAX_RETRIES;

  /** One line of misbehaviours.csv. */
  record Case(String misbehaviour, String url, CrawlOutcome outcome, String detail, boolean hostGoesOn) {
    @Override
    public String toString() {
      return misbehaviour;
    }
  }

  static final UrlNormalizer NORMALIZER = new UrlNormalizer(UrlNormalizer.Options.defaults());

  static List<Case> cases;
  static HostileSite site;
  static StopReason reason;
  static Duration took;
  static StatsSnapshot stats;
  static List<CrawlLogEntry> log;
  /** WARN and ERROR events of the crawl. */
  static List<ILoggingEvent> logged;
  /** The payload of every WARC response record, by its URL, in the order written. */
  static Map<String, List<byte[]>> recorded;
  /** The HTTP headers of every WARC response record, by its URL, in the order written. */
  static Map<String, List<Map<String, List<String>>>> recordedHeads;

  @BeforeAll
  static void crawlTheHostileSite(@TempDir Path dir) throws Exception {
    cases = cases();
    site = HostileSite.start(cases.stream().map(Case::url).toList());
    Path crawlDir = dir.resolve("crawl");
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    ThresholdFilter warnAndUp = new ThresholdFilter();
    warnAndUp.setLevel("WARN");
    warnAndUp.start();
    appender.addFilter(warnAndUp);
    appender.start();
    root.addAppender(appender);
    long start = System.nanoTime();
    try (Crawl crawl = open(crawlDir)) {
      reason = crawl.run();
      stats = crawl.stats();
    } finally {
      root.detachAppender(appender);
    }
    logged = List.copyOf(appender.list);
    took = Duration.ofNanos(System.nanoTime() - start);
    log = CrawlLogReader.readAll(crawlDir.resolve("crawl.log")).stream().toList();
    recorded = new HashMap<>();
    recordedHeads = new HashMap<>();
    readWarc(crawlDir.resolve("warc"));
  }

  static void readWarc(Path warcDir) throws IOException {
    List<Path> files;
    try (Stream<Path> list = Files.list(warcDir)) {
      files = list.sorted().toList();
    }
    for (Path file : files) {
      try (WarcReader reader = new WarcReader(file)) {
        for (WarcRecord record : reader) {
          if (record instanceof WarcResponse response) {
            recordedHeads.computeIfAbsent(response.target(), url -> new ArrayList<>())
                .add(response.http().headers().map());
            recorded.computeIfAbsent(response.target(), url -> new ArrayList<>())
                .add(response.http().body().stream().readAllBytes());
          }
        }
      }
    }
  }

  @AfterAll
  static void stopTheSite() throws IOException {
    if (site != null) {
      site.close();
    }
  }

  static Crawl open(Path dir) throws Exception {
    return Crawl.open(config(dir, true), Crawl.Start.NEW,
        CrawlEnvironment.standard().withDns(site.dns()).withSeeds(List.of(site.seed())));
  }

  /** Short timeouts, a 1 MB cap, no delay, quick back-off and suspension: a hostile web in seconds. */
  static CrawlConfig config(Path dir, boolean allowPrivateAddresses) throws Exception {
    String yaml = """
        status:
          listen: 127.0.0.1:0   # any free port: test crawls run side by side
        crawl:
          data-dir: '%s'
          user-agent:
            name: hostile-test
          limits:
            max-depth: %d
            max-duration: %ds
        politeness:
          default-delay: 0ms
          max-crawl-delay: %dms
          max-retry-after: 300ms
          error-backoff:
            initial: 50ms
            max: 200ms
            suspend-after: 3
            suspend-for: 1s
        fetch:
          workers: 16
          timeouts:
            connect: 5s
            read: 5s
            total: 10s
          max-content-bytes: 1MB
          max-redirects: 5
        scope:
          mode: same-domain
          allow-private-addresses: %s
          max-url-length: %d
        seen:
          expected-urls: 100_000
        stats:
          interval: 1s
        """.formatted(dir, MAX_DEPTH, MAX_DURATION.toSeconds(), MAX_CRAWL_DELAY.toMillis(), allowPrivateAddresses,
            MAX_URL_LENGTH);
    return ConfigLoader.parse(yaml, "hostile-test", dir.getParent());
  }

  static List<String> resourceLines(String name) throws IOException {
    try (InputStream in = Objects.requireNonNull(HostileWebTest.class.getResourceAsStream(name), name)) {
      return List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"));
    }
  }

  /** misbehaviours.csv: '#' comments, a header line, then one case a line in '|'-separated columns. */
  static List<Case> cases() throws IOException {
    List<Case> read = new ArrayList<>();
    boolean header = true;
    for (String line : resourceLines("misbehaviours.csv")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      if (header) {
        header = false;
        continue;
      }
      String[] c = line.split("\\|");
      assertThat(c).as(line).hasSize(6);
      read.add(new Case(c[0].strip(), c[1].strip(), CrawlOutcome.valueOf(c[2].strip()),
          c[3].strip().equals("-") ? null : c[3].strip(), c[4].strip().equals("yes")));
    }
    return read;
  }

  /** The crawl-log lines of {@code url} (normalized as the crawl does: no session ids), in time order. */
  static List<CrawlLogEntry> linesOf(String url) {
    String normal = NORMALIZER.normalize(url) instanceof UrlNormalization.Accepted a ? a.url() : url;
    return log.stream().filter(e -> e.url().equals(normal)).sorted(Comparator.comparing(CrawlLogEntry::time)).toList();
  }

  @Test
  void theCrawlEndsOnItsOwn() {
    assertThat(reason).isEqualTo(StopReason.FINISHED);
    assertThat(took).isLessThan(MAX_DURATION);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void eachMisbehaviourHasItsOutcome(Case c) {
    List<CrawlLogEntry> lines = linesOf(site.url(c.url()));
    assertThat(lines).as(c.misbehaviour()).isNotEmpty();
    CrawlLogEntry last = lines.getLast();
    assertThat(last.outcome()).as(c.misbehaviour() + ": " + last.format()).isEqualTo(c.outcome());
    if (c.detail() != null) {
      assertThat(last.detail()).as(c.misbehaviour() + ": " + last.format()).containsIgnoringCase(c.detail());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theCrawlOfEachHostGoesOnAfterItsMisbehaviour(Case c) {
    String ok = site.url(c.url()).replaceFirst("(https?://[^/]+)/.*", "$1/ok");
    List<CrawlLogEntry> after = linesOf(ok);
    if (c.hostGoesOn()) {
      assertThat(after).as(ok).singleElement().satisfies(e -> {
        assertThat(e.outcome()).isEqualTo(CrawlOutcome.FETCHED);
        assertThat(e.time()).isAfterOrEqualTo(linesOf(site.url(c.url())).getFirst().time());
      });
    } else {
      assertThat(after).as(ok).isNotEmpty().noneMatch(e -> e.outcome() == CrawlOutcome.FETCHED);
    }
  }

  @Test
  void everyOutcomeInTheLogIsCountedInTheStats() {
    for (CrawlOutcome outcome : CrawlOutcome.values()) {
      long pageLines = pageLines().stream().filter(e -> e.outcome() == outcome).count();
      assertThat(stats.outcome(outcome)).as(outcome.name()).isEqualTo(pageLines);
    }
    assertThat(stats.pages()).isEqualTo(pageLines().size());
    assertThat(stats.robotsFetches()).isEqualTo(log.size() - pageLines().size());
  }

  @Test
  void aHostThatIsDownIsTriedSixTimesThenGivenUp() {
    List<Case> down = cases.stream().filter(c -> !c.hostGoesOn()).toList();
    assertThat(down).hasSize(5);
    for (Case c : down) {
      List<CrawlLogEntry> lines = linesOf(site.url(c.url()));
      assertThat(lines).as(c.misbehaviour()).hasSize(1 + MAX_RETRIES)
          .allSatisfy(e -> assertThat(e.outcome()).isEqualTo(c.outcome()));
      assertThat(lines.getLast().detail()).as(c.misbehaviour()).endsWith("given up after " + MAX_RETRIES + " retries");
      assertThat(lines.subList(0, MAX_RETRIES)).noneMatch(e -> e.detail() != null && e.detail().contains("given up"));
    }
  }

  @Test
  void aStormOf503sIsRequestedOncePerTryAndNoMore() {
    assertThat(site.requests("unavailable.example.com")).filteredOn(r -> r.path().equals("/page"))
        .hasSize(1 + MAX_RETRIES);
  }

  @Test
  void a429IsFetchedAgainOnlyAfterItsRetryAfterCappedByThePoliteness() {
    List<CrawlLogEntry> lines = linesOf(site.url("http://rate-limited.example.com:{port}/page"));
    assertThat(lines).extracting(CrawlLogEntry::outcome).containsExactly(CrawlOutcome.RETRY_LATER, CrawlOutcome.FETCHED);
    List<HostileSite.Request> asked = site.requests("rate-limited.example.com").stream()
        .filter(r -> r.path().equals("/page")).toList();
    assertThat(asked).hasSize(2);
    // Retry-After: 1 is capped by politeness.max-retry-after (300ms here).
    assertThat(Duration.between(asked.get(0).at(), asked.get(1).at())).isGreaterThanOrEqualTo(Duration.ofMillis(250));
  }

  @Test
  void aHostWithoutAnAnswerHasItsCauseOnTheRobotsTxtLine() {
    assertThat(linesOf("http://" + HostileSite.NXDOMAIN + ":" + site.port() + "/robots.txt"))
        .extracting(CrawlLogEntry::outcome).containsOnly(CrawlOutcome.DNS_FAILURE);
    assertThat(linesOf("http://refused.example.com:" + site.deadPort() + "/robots.txt"))
        .extracting(CrawlLogEntry::outcome).containsOnly(CrawlOutcome.CONNECTION_REFUSED);
    assertThat(linesOf("https://tls.example.com:" + site.port() + "/robots.txt"))
        .extracting(CrawlLogEntry::outcome).containsOnly(CrawlOutcome.TLS_FAILURE);
  }

  @Test
  void robotsTxtThatIsUnavailableIsAskedAgainOnlyAfterItsRetryTime() {
    // The page is put back six times, but robots.txt is trusted as unavailable for a minute.
    assertThat(site.requests("robots-5xx.example.com")).extracting(HostileSite.Request::path)
        .containsExactly("/robots.txt");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "http://endless-chunked.example.com:{port}/stream",
      "http://oversized.example.com:{port}/big",
      "http://gzip-bomb.example.com:{port}/page",
      "http://single-line.example.com:{port}/page"})
  void aBodyPastTheCapKeepsExactlyTheCap(String url) {
    assertThat(linesOf(site.url(url))).singleElement().satisfies(e -> {
      assertThat(e.outcome()).isEqualTo(CrawlOutcome.TRUNCATED);
      assertThat(e.bytes()).isEqualTo(CAP);
    });
  }

  @Test
  void aTruncatedPageIsStillReadForItsLinks() {
    assertThat(site.requests("single-line.example.com")).extracting(HostileSite.Request::path)
        .contains("/start").doesNotContain("/end");
  }

  @Test
  void aBrokenBodyKeepsWhatArrived() {
    assertThat(linesOf(site.url("http://short-body.example.com:{port}/page")).getLast().bytes()).isEqualTo(1000);
    assertThat(linesOf(site.url("http://reset-mid-body.example.com:{port}/page")).getLast().bytes())
        .isBetween(0L, 20_000L);
    assertThat(linesOf(site.url("http://slow-drip.example.com:{port}/page")).getLast().bytes()).isBetween(1L, 10L);
  }

  @Test
  void aRedirectLoopEndsAtTheUrlSeenCheckWithEachUrlRequestedOnce() {
    assertThat(site.requests("redirect-loop.example.com")).extracting(HostileSite.Request::path)
        .containsExactlyInAnyOrder("/robots.txt", "/a", "/b", "/ok");
  }

  @Test
  void aRedirectChainStopsAtMaxRedirects() {
    List<CrawlLogEntry> hops = log.stream().filter(e -> e.url().contains("redirect-chain.example.com")
        && e.url().contains("/hop/")).toList();
    assertThat(hops).filteredOn(e -> e.outcome() == CrawlOutcome.REDIRECT).hasSize(5);
    assertThat(hops).filteredOn(e -> e.outcome() == CrawlOutcome.REDIRECT_LIMIT).singleElement()
        .satisfies(e -> assertThat(e.url()).endsWith("/hop/5"));
    assertThat(site.requests("redirect-chain.example.com")).extracting(HostileSite.Request::path)
        .doesNotContain("/hop/6");
  }

  @Test
  void duplicateLocationHeadersLeadToOneTarget() {
    List<String> paths = site.requests("duplicate-location.example.com").stream().map(HostileSite.Request::path).toList();
    assertThat(paths.contains("/first") ^ paths.contains("/second")).as(paths.toString()).isTrue();
  }

  @Test
  void urlsOverTheLengthLimitAreNeverRequestedAndAreCountedTooLong() {
    assertThat(site.requests()).allSatisfy(r -> assertThat(r.target().length()).isLessThanOrEqualTo(MAX_URL_LENGTH));
    // Two links and one redirect target of long-urls and redirect-long.
    assertThat(stats.links(LinkVerdict.TOO_LONG)).isGreaterThanOrEqualTo(3);
  }

  @Test
  void fiveThousandLinksOnOnePageAreAllTakenIn() {
    assertThat(pageLines()).filteredOn(e -> e.url().contains("many-links.example.com")
        && e.url().contains("/item/") && e.outcome() == CrawlOutcome.ROBOTS_DENIED).hasSize(HostileSite.MANY_LINKS);
    assertThat(site.requests("many-links.example.com")).noneMatch(r -> r.path().startsWith("/item/"));
  }

  @Test
  void malformedHrefsAreResolvedOrRefusedAndNeverThrown() {
    assertThat(site.requests("bad-hrefs.example.com")).extracting(HostileSite.Request::target)
        .contains("/a%20b", "/%C3%A9t%C3%A9", "/padded", "/%25zz", "/ok")
        .noneMatch(t -> t.contains("javascript") || t.contains("mailto") || t.contains("tel:") || t.contains("data:"));
    assertThat(site.requests()).noneMatch(r -> r.host().isEmpty() || r.host().equals("[::1"));
  }

  @Test
  void sitemapsAreReadWhateverTheirTypeSays() {
    for (String host : List.of("sitemap-gz.example.com", "sitemap-html.example.com")) {
      assertThat(site.requests(host)).extracting(HostileSite.Request::target).as(host).contains("/listed");
    }
  }

  @Test
  void aPageWithoutAContentTypeIsSniffedAsHtmlAndItsLinksFollowed() {
    assertThat(site.requests("no-type.example.com")).extracting(HostileSite.Request::target)
        .contains("/page", "/untyped-link");
  }

  @Test
  void theContentTypeHeaderWinsOverAContradictingMetaCharset() {
    // 0xE9 is é in Latin-1 and windows-1251's й, but the header says UTF-8: it is invalid, so U+FFFD.
    assertThat(site.requests("charset-clash.example.com")).extracting(HostileSite.Request::target)
        .contains("/caf%EF%BF%BD", "/after");
    assertThat(site.requests("bad-utf8.example.com")).extracting(HostileSite.Request::target)
        .contains("/before", "/after");
  }

  @Test
  void aHugeRobotsTxtIsReadUpToItsParsingLimitOnly() {
    assertThat(linesOf(site.url("http://robots-huge.example.com:{port}/robots.txt"))).singleElement()
        .satisfies(e -> assertThat(e.bytes()).isEqualTo(512 * 1024));
    assertThat(site.requests("robots-huge.example.com")).extracting(HostileSite.Request::path)
        .doesNotContain("/secret").contains("/late");
  }

  @ParameterizedTest
  @ValueSource(strings = {"robots-delay-huge.example.com", "robots-delay-exponent.example.com"})
  void aCrawlDelayTooLargeToParseSpacesRequestsAtTheCap(String host) {
    List<HostileSite.Request> asked = site.requests(host);
    assertThat(asked).extracting(HostileSite.Request::path).containsExactly("/robots.txt", "/page", "/ok");
    for (int i = 1; i < asked.size(); i++) {
      // Seen by the server a little after each start, later on a loaded machine; the default delay here is 0.
      assertThat(Duration.between(asked.get(i - 1).at(), asked.get(i).at())).as("before %s", asked.get(i).path())
          .isGreaterThanOrEqualTo(MAX_CRAWL_DELAY.minusMillis(50));
    }
  }

  @Test
  void aRobotsTxtRedirectIsFollowedAndItsRulesApply() {
    assertThat(site.requests("robots-redirect.example.com")).extracting(HostileSite.Request::path)
        .containsExactly("/robots.txt", "/robots-real.txt", "/ok");
  }

  @Test
  void theCalendarTrapEndsAtTheDepthLimit() {
    List<CrawlLogEntry> months = pageLines().stream().filter(e -> e.url().contains("/cal/")).toList();
    // From the month linked at depth 1, each step goes one month back or forth: 2 * (max-depth - 1) + 1 months.
    assertThat(months).hasSize(2 * (MAX_DEPTH - 1) + 1)
        .allSatisfy(e -> assertThat(e.depth()).isBetween(1, MAX_DEPTH))
        .extracting(CrawlLogEntry::url).doesNotHaveDuplicates();
    assertThat(stats.links(LinkVerdict.TOO_DEEP)).isGreaterThanOrEqualTo(2);
  }

  @Test
  void sessionIdsAreStrippedSoEachPageIsFetchedOnce() {
    assertThat(site.requests("session-ids.example.com")).extracting(HostileSite.Request::target)
        .containsExactlyInAnyOrder("/robots.txt", "/shop?page=1", "/shop?page=2", "/shop?page=3", "/ok");
  }

  @Test
  void aGrowingPathEndsAtTheRepeatedSegmentGuard() {
    assertThat(site.requests("path-trap.example.com")).extracting(HostileSite.Request::path)
        .containsExactlyInAnyOrder("/robots.txt", "/trap/", "/trap/again/", "/trap/again/again/",
            "/trap/again/again/again/", "/ok");
    assertThat(stats.links(LinkVerdict.REPEATED_SEGMENTS)).isGreaterThanOrEqualTo(1);
  }

  @Test
  void aRedirectWhoseBodyIsCutStillLeadsToItsTarget() {
    assertThat(site.requests("redirect-cut." + HostileSite.DOMAIN)).extracting(HostileSite.Request::target)
        .contains("/go", "/moved-here");
  }

  @ParameterizedTest
  @ValueSource(strings = {"deflate-zlib", "deflate-raw"})
  void aDeflatedPageIsDecodedForItsLinksAndRecordedDecodedWithItsCodingNamed(String name) {
    String host = name + "." + HostileSite.DOMAIN;
    String page = "http://" + host + ":" + site.port() + "/page";
    assertThat(site.requests(host)).extracting(HostileSite.Request::target).contains("/page", "/after-deflate");
    assertThat(recorded.get(page)).singleElement().satisfies(payload -> assertThat(new String(payload, StandardCharsets.UTF_8))
        .isEqualTo("<title>deflate</title><a href=/after-deflate>next</a><a href=/ok>ok</a>"));
    assertThat(recordedHeads.get(page)).singleElement().satisfies(head -> {
      assertThat(head).containsEntry("X-Crawler-Content-Encoding", List.of("deflate")).doesNotContainKey("Content-Encoding");
    });
  }

  @Test
  void aStrayByteAfterGzipIsIgnoredAndThePagesLinksFollowed() {
    assertThat(site.requests("gzip-trailing-byte." + HostileSite.DOMAIN)).extracting(HostileSite.Request::target)
        .contains("/page", "/after-gzip");
  }

  @ParameterizedTest
  @ValueSource(strings = {"http://skipped-type.example.com:{port}/page", "http://odd-type.example.com:{port}/page"})
  void aTypeNotAcceptedIsNotDownloaded(String url) {
    assertThat(linesOf(site.url(url))).singleElement()
        .satisfies(e -> assertThat(e.bytes()).isZero());
  }

  static Stream<String> keptAliveHosts() {
    return HostileSite.KEPT_ALIVE.stream().sorted().map(c -> c + "." + HostileSite.DOMAIN);
  }

  @ParameterizedTest
  @MethodSource("keptAliveHosts")
  void whatALieLeavesOnAKeptAliveConnectionNeverAnswersTheNextRequest(String host) {
    List<HostileSite.Request> asked = site.requests(host);
    assertThat(asked).extracting(HostileSite.Request::path).containsExactly("/robots.txt", "/page", "/ok");
    // The first two show that the crawl keeps connections alive, so the lie had a next request to spoil.
    assertThat(asked.get(1).connection()).as("/page on robots.txt's connection").isEqualTo(asked.get(0).connection());
    assertThat(asked.get(2).connection()).as("/ok on a new connection").isNotEqualTo(asked.get(1).connection());
    assertThat(recorded.get("http://" + host + ":" + site.port() + "/ok")).singleElement()
        .satisfies(payload -> assertThat(new String(payload, StandardCharsets.UTF_8))
            .isEqualTo("<title>ok</title><p>A well-behaved page of " + host + "."));
  }

  @Test
  void noRecordHoldsASmuggledPageAndItsLinkIsNeverFollowed() {
    assertThat(recorded.values()).allSatisfy(payloads -> assertThat(payloads)
        .noneMatch(p -> new String(p, StandardCharsets.ISO_8859_1).contains(HostileSite.SMUGGLED_PAGE)));
    assertThat(site.requests()).noneMatch(r -> r.path().equals("/smuggled-link"));
  }

  @Test
  void noExpectedFailureIsLoggedWithAStackTraceOrAsUnexpected() {
    assertThat(logged).noneMatch(e -> e.getThrowableProxy() != null)
        .noneMatch(e -> e.getFormattedMessage().contains("please report it"));
  }

  @Test
  void theReadmeTableIsTheCsvRendered() throws IOException {
    String expected = MisbehaviourTable.render(resourceLines("misbehaviours.csv"));
    String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);   // crawler/README.md
    int start = readme.indexOf(MisbehaviourTable.START);
    int end = readme.indexOf(MisbehaviourTable.END);
    assertThat(start).as("crawler/README.md has the hostile-web markers").isNotNegative();
    assertThat(end).as("crawler/README.md has the hostile-web markers").isGreaterThan(start);
    String actual = readme.substring(start + MisbehaviourTable.START.length() + 1, end);
    if (!actual.equals(expected)) {
      Path rendered = Path.of("target", "hostile-web-table.md");
      Files.writeString(rendered, expected, StandardCharsets.UTF_8);
      assertThat(actual).as("crawler/README.md's hostile-web table is out of date: paste %s between its markers",
          rendered.toAbsolutePath()).isEqualTo(expected);
    }
  }

  @Test
  void theTableHasAtLeastThirtyMisbehaviours() {
    assertThat(cases.stream().map(c -> c.misbehaviour().replaceFirst(":.*", "")).distinct()).hasSizeGreaterThanOrEqualTo(30);
  }

  /** Crawl-log lines of pages: robots.txt fetches have their own lines, with the detail "robots.txt". */
  static List<CrawlLogEntry> pageLines() {
    return log.stream().filter(e -> !"robots.txt".equals(e.detail())).toList();
  }
}
