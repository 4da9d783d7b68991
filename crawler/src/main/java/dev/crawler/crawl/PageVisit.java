package dev.crawler.crawl;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import dev.crawler.fetch.FetchResult;
import dev.crawler.fetch.Fetcher;
import dev.crawler.frontier.FetchOutcome;
import dev.crawler.frontier.Frontier;
import dev.crawler.frontier.Lease;
import dev.crawler.parse.HtmlSniffer;
import dev.crawler.parse.PageParser;
import dev.crawler.parse.ParsedPage;
import dev.crawler.parse.Sitemap;
import dev.crawler.parse.SitemapReader;
import dev.crawler.record.CrawlLog;
import dev.crawler.record.CrawlLogEntry;
import dev.crawler.record.CrawlOutcome;
import dev.crawler.record.WarcRecorder;
import dev.crawler.robots.HostRobots;
import dev.crawler.robots.RobotsCache;
import dev.crawler.scope.PageBudget;
import dev.crawler.queue.QueueBy;
import dev.crawler.stats.CrawlStats;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import okhttp3.HttpUrl;

/**
 * What the crawl does with one leased URL, in order: robots.txt, page budget, fetch, record,
 * follow (redirect target, links, sitemap entries), and give the lease back with the outcome
 * that schedules the host. One instance serves all workers; it keeps no per-URL state.
 */
final class PageVisit {
  /** How long a URL waits when its host's robots.txt cannot be read (RFC 9309 2.3.1.4: disallow for now). */
  static final Duration ROBOTS_UNAVAILABLE_RETRY = Duration.ofMinutes(1);
  /**
   * Times one URL is put back in its queue (429 or 503, or its host's robots.txt unavailable)
   * before it is given up. Without a limit a host that answers 503 forever, or whose robots.txt
   * never comes (no DNS, nothing listening, a broken TLS port), keeps its URLs queued and the
   * crawl never finishes. Nutch gives up after 3 (db.fetch.retry.max), Heritrix after 30.
   */
  static final int MAX_RETRIES = 5;
  /** URLs whose retries are counted at once; one evicted early only gets its retries again. */
  private static final int RETRIES_TRACKED = 100_000;

  private final Frontier frontier;
  private final RobotsCache robots;
  private final RobotsApplied robotsApplied;
  private final PageBudget budget;
  private final Fetcher fetcher;
  private final PageParser parser;
  private final SitemapReader sitemaps;
  private final LinkIntake intake;
  private final WarcRecorder warc;       // null when output.warc is off
  private final CrawlLog crawlLog;       // null when output.crawl-log is off
  private final CrawlStats stats;
  private final int maxRedirects;
  private final boolean followSitemaps;
  private final Runnable crawlBudgetSpent;
  /** URLs put back to wait their host's delay after its robots.txt was fetched for them. */
  private final Cache<String, Boolean> deferred = CacheBuilder.newBuilder().maximumSize(RETRIES_TRACKED).build();
  /** Retries so far of URLs put back in their queue; in memory only, so a resumed crawl tries them afresh. */
  private final Cache<String, Integer> retries =
      CacheBuilder.newBuilder().maximumSize(RETRIES_TRACKED).build();

  PageVisit(Frontier frontier, RobotsCache robots, PageBudget budget, Fetcher fetcher, PageParser parser,
      SitemapReader sitemaps, LinkIntake intake, WarcRecorder warc, CrawlLog crawlLog, CrawlStats stats,
      int maxRedirects, boolean followSitemaps, Runnable crawlBudgetSpent) {
    this.frontier = frontier;
    this.robots = robots;
    this.robotsApplied = new RobotsApplied(RobotsApplied.HostDelays.of(frontier), intake, followSitemaps);
    this.budget = budget;
    this.fetcher = fetcher;
    this.parser = parser;
    this.sitemaps = sitemaps;
    this.intake = intake;
    this.warc = warc;
    this.crawlLog = crawlLog;
    this.stats = stats;
    this.maxRedirects = maxRedirects;
    this.followSitemaps = followSitemaps;
    this.crawlBudgetSpent = crawlBudgetSpent;
  }

  /**
   * Visits the lease's URL and completes the lease, unless the crawl is stopping and the visit
   * was cut short, or the crawl's storage failed during it (a full disk): then the lease is left
   * open and the URL is handed out again on resume.
   */
  void visit(Lease lease, StopSignal stop) {
    FetchOutcome scheduling = FetchOutcome.FAILED;   // if anything below throws, the URL is not retried forever
    boolean complete = true;
    try {
      Visit v = decide(lease, stop);
      if (v == null) {
        complete = false;
        return;
      }
      scheduling = v.scheduling;
      if (scheduling.kind() != FetchOutcome.Kind.RETRY_AFTER && scheduling.kind() != FetchOutcome.Kind.DEFERRED) {
        retries.invalidate(lease.url());
      }
    } catch (RuntimeException e) {
      if (StorageFailure.is(e)) {
        // A full disk or a broken store: what this visit wrote may be incomplete (WARC record,
        // links not queued). The crawl stops; the open lease makes a resume visit the URL again.
        complete = false;
      }
      throw e;
    } catch (Error e) {
      complete = false;   // out of memory, say: the crawl stops, and a resume visits the URL again
      throw e;
    } finally {
      if (complete) {
        complete(lease, scheduling);
      }
    }
  }

  /**
   * Ends the lease. Should the frontier refuse the outcome for a reason other than its storage
   * (a bug: it once threw on a Retry-After of 10^17 seconds), the lease is ended as FAILED
   * instead: a lease left open keeps its host from ever being served again, and the crawl from
   * ever finishing.
   */
  private void complete(Lease lease, FetchOutcome scheduling) {
    try {
      frontier.complete(lease, scheduling);
    } catch (RuntimeException e) {
      if (StorageFailure.is(e) || scheduling.kind() == FetchOutcome.Kind.FAILED) {
        throw e;
      }
      try {
        frontier.complete(lease, FetchOutcome.FAILED);
      } catch (RuntimeException again) {
        e.addSuppressed(again);
      }
      throw e;
    }
  }

  /** The outcome recorded for the URL, the one that schedules its host, and a note for the crawl log (or null). */
  private record Visit(CrawlOutcome outcome, FetchOutcome scheduling, String note) {
    Visit(CrawlOutcome outcome, FetchOutcome scheduling) {
      this(outcome, scheduling, null);
    }
  }

  private Visit decide(Lease lease, StopSignal stop) {
    String url = lease.url();
    HttpUrl parsed = FetchableUrls.fetchable(url);
    if (parsed == null) {
      // Queued by a build that did not check (see FetchableUrls): no request, no robots.txt lookup.
      log(lease, CrawlOutcome.UNSUPPORTED_URL, null, "the HTTP client cannot fetch this URL as it is");
      return new Visit(CrawlOutcome.UNSUPPORTED_URL, FetchOutcome.SKIPPED);
    }
    if (!frontier.mayRequest(lease)) {
      // Another fetch of the queue learnt a Crawl-delay since the lease: come back under it
      // (robots.txt, if it is to be fetched, is a request to the queue too).
      return new Visit(null, FetchOutcome.DEFERRED);
    }
    Instant asked = Instant.now();
    HostRobots rules = robots.forUrl(url);
    if (stop.aborted()) {
      return null;     // robots.txt cut short by a stop: nothing recorded, the lease returns on resume
    }
    robotsApplied.apply(lease.hostKey(), RobotsCache.originOf(parsed), rules);
    if (rules.availability() == HostRobots.Availability.UNAVAILABLE) {
      Visit visit = retryLater(lease, CrawlOutcome.ROBOTS_UNAVAILABLE, ROBOTS_UNAVAILABLE_RETRY);
      log(lease, visit.outcome, null, detail(rules.cause(), visit.note));
      return visit;
    }
    // A URL that ends here without a request of its own (SKIPPED) leaves the host's time as it
    // was; but if robots.txt was just requested for it, that request counts: the host waits.
    boolean robotsJustFetched = !rules.fetchedAt().isBefore(asked);
    FetchOutcome noRequest = robotsJustFetched ? FetchOutcome.FETCHED : FetchOutcome.SKIPPED;
    if (!rules.isAllowed(url)) {
      log(lease, CrawlOutcome.ROBOTS_DENIED, null, null);
      return new Visit(CrawlOutcome.ROBOTS_DENIED, noRequest);
    }
    boolean deferredBefore = deferred.asMap().remove(url) != null;
    if (robotsJustFetched && !deferredBefore) {
      // robots.txt was just requested from this host: the page waits the host's delay like any
      // second request would (a Crawl-delay counts between all requests, robots.txt included).
      // Once only: if robots.txt was fetched again by the time the URL came back (its answers
      // expire sooner than the host's delay), waiting again would wait forever.
      deferred.put(url, Boolean.TRUE);
      return new Visit(null, FetchOutcome.DEFERRED);
    }
    if (!frontier.mayRequest(lease)) {
      return new Visit(null, FetchOutcome.DEFERRED);   // as above, learnt while robots.txt was read
    }
    // The host's own key: under politeness.queue-by: domain the lease's key is its domain's.
    switch (budget.tryAcquire(QueueBy.HOST.of(url))) {
      case GRANTED -> { }
      case HOST_SPENT -> {
        log(lease, CrawlOutcome.BUDGET_EXCEEDED, null, "crawl.limits.max-pages-per-host reached");
        return new Visit(CrawlOutcome.BUDGET_EXCEEDED, noRequest);   // the host's leftovers go at once
      }
      case CRAWL_SPENT -> {
        crawlBudgetSpent.run();
        return null;   // kept for a resume with a larger budget
      }
    }
    Runnable requestStarts = () -> requestStarts(lease);
    FetchResult result = followSitemaps && SitemapReader.isGzipSitemapUrl(url)
        ? fetcher.fetchAnyType(url, requestStarts) : fetcher.fetch(url, requestStarts);
    if (stop.aborted()) {
      return null;     // cut short by a stop: nothing recorded, the lease returns on resume
    }
    if (warc != null) {
      warc.record(result);
    }
    Visit visit = follow(lease, result);
    log(lease, visit.outcome, result, detail(result.cause(), visit.note));
    return visit;
  }

  /**
   * Tells the frontier the request goes out now, so the host's next start waits its delay from
   * this moment rather than from the lease. A frontier that fails here fails the completion too,
   * which reports it; the fetch goes on.
   */
  private void requestStarts(Lease lease) {
    try {
      frontier.requestStarts(lease);
    } catch (RuntimeException e) {
      // reported by the completion of this lease
    }
  }

  /** Classifies a fetch and takes what it points to into the crawl. */
  private Visit follow(Lease lease, FetchResult result) {
    // A redirect and a retry-later are read from the status line, before the body's fate: a
    // 301 whose body was cut still points somewhere, and a 503 still asks us to come back.
    if (result.isRetryLater()) {
      Duration wait = result.retryAfter() == null ? Duration.ZERO : result.retryAfter();
      return retryLater(lease, CrawlOutcome.RETRY_LATER, wait);
    }
    if (result.isRedirect() && result.location() != null) {
      if (lease.redirectHops() >= maxRedirects) {
        return new Visit(CrawlOutcome.REDIRECT_LIMIT, FetchOutcome.FETCHED);
      }
      intake.take(List.of(result.location()), lease.depth(), lease.url(), lease.redirectHops() + 1);
      return new Visit(CrawlOutcome.REDIRECT, FetchOutcome.FETCHED);
    }
    if (!result.status().answered()) {
      return new Visit(CrawlOutcome.ofFailure(result.status()), FetchOutcome.FAILED);
    }
    if (result.isRedirect()) {
      return new Visit(CrawlOutcome.FETCHED, FetchOutcome.FETCHED, unfollowedRedirect(result));
    }
    if (result.contentSkipped()) {
      return new Visit(CrawlOutcome.CONTENT_SKIPPED, FetchOutcome.FETCHED);
    }
    if (result.httpStatus() >= 200 && result.httpStatus() < 300 && result.body().length > 0) {
      takeLinks(lease, result);
    }
    return new Visit(result.truncated() ? CrawlOutcome.TRUNCATED : CrawlOutcome.FETCHED, FetchOutcome.FETCHED);
  }

  /**
   * Puts the URL back in its queue to wait {@code wait}, or gives it up (the host backs off as
   * after a failure) once it has been put back {@link #MAX_RETRIES} times.
   */
  private Visit retryLater(Lease lease, CrawlOutcome outcome, Duration wait) {
    int before = retries.asMap().getOrDefault(lease.url(), 0);
    if (before >= MAX_RETRIES) {
      retries.invalidate(lease.url());
      return new Visit(outcome, FetchOutcome.FAILED, "given up after " + MAX_RETRIES + " retries");
    }
    retries.put(lease.url(), before + 1);
    return new Visit(outcome, FetchOutcome.retryAfter(wait));
  }

  /** Why a 3xx was not followed: its Location is missing, or not an http(s) URL. */
  private static String unfollowedRedirect(FetchResult result) {
    String location = result.responseHeaders().get("Location");
    if (location == null) {
      return "redirect without Location";
    }
    String clipped = location.length() <= 100 ? location : location.substring(0, 97) + "...";
    return "redirect not followed: Location " + clipped + " is not an http(s) URL";
  }

  private static String detail(String cause, String note) {
    return cause == null ? note : note == null ? cause : cause + "; " + note;
  }

  /**
   * Links of an HTML page (by its type, or sniffed when it has none), or URLs of a sitemap (by
   * its bytes, whatever its type: a text/html sitemap is read as one, and only if it is not a
   * readable sitemap is it parsed as HTML).
   */
  private void takeLinks(Lease lease, FetchResult result) {
    byte[] body = result.body();
    boolean html = result.isHtml() || result.contentType() == null && HtmlSniffer.looksLikeHtml(body);
    if (followSitemaps && (!html || SitemapReader.mayBeSitemap(body))) {
      Optional<Sitemap> sitemap = sitemaps.read(result.url(), body, result.contentType());
      if (sitemap.isPresent()) {
        List<String> urls = new ArrayList<>(sitemap.get().sitemapUrls());
        urls.addAll(sitemap.get().pageUrls());
        intake.take(urls, lease.depth() + 1, lease.url(), 0);
        return;
      }
    }
    if (html) {
      ParsedPage page = parser.parse(result.url(), body, result.charset());
      if (!page.nofollow()) {
        intake.take(page.links(), lease.depth() + 1, lease.url(), 0);
      }
    }
  }

  private void log(Lease lease, CrawlOutcome outcome, FetchResult result, String detail) {
    int status = result == null ? 0 : result.httpStatus();
    long bytes = result == null ? 0 : result.body().length;
    // Counted once logged, with the line under the log's lock (see CrawlStats.countWith): a line
    // that cannot be written (a full disk) leaves the lease open, and the resume visits and counts
    // the URL again.
    Runnable count = () -> stats.page(outcome, status, bytes);
    if (crawlLog == null) {
      count.run();
      return;
    }
    crawlLog.log(new CrawlLogEntry(result == null ? Instant.now() : result.startedAt(), outcome, status, bytes,
        result == null ? Duration.ZERO : result.duration(), lease.url(), lease.via(),
        result == null ? null : result.contentType(), lease.depth(), detail), count);
  }
}
