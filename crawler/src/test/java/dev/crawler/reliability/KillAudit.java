package dev.crawler.reliability;

import dev.crawler.demo.RequestLog;
import dev.crawler.record.CrawlLogEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the site's request log and the crawl log say about a crawl that was killed and resumed:
 * which run each request belongs to, which requests were in flight at each kill, and why a URL
 * was requested (or settled in the crawl log) more than once.
 *
 * <p>Runs are numbered from 0; run {@code k} ends with kill {@code k+1} (or, for the last run,
 * with the crawl's end). A request belongs to the run it started in; one that starts between the
 * SIGKILL and the process's death still belongs to the dying run.
 *
 * <p>A URL fetched again after a kill is explained in one of two ways, and any other way is a bug:
 * <ul>
 *   <li><b>leased at the kill</b>: its request in run k was not settled in the frontier when run k
 *       died, so run k+1 hands it out again. Its requests straddle the kill, and there are at most
 *       as many per kill as the crawl has workers (each holds one lease).
 *   <li><b>in a batch in flight at the kill</b>: it was found on a page leased at the kill, whose
 *       links were being taken in (queued, not yet recorded as seen) when the process died; the
 *       page's refetch finds it NEW again. Its crawl-log {@code via} is such a page.
 * </ul>
 */
final class KillAudit {
  /** A SIGKILL: sent at {@code atNanos}, the process gone at {@code goneNanos} (both {@link System#nanoTime}). */
  record Kill(int number, long atNanos, long goneNanos) {}

  private final int port;
  private final List<Kill> kills;
  /** Page requests (robots.txt left out: every process reads it again) by URL, in order of start. */
  private final Map<String, List<RequestLog.Request>> byUrl = new LinkedHashMap<>();
  private final Map<String, List<CrawlLogEntry>> settled = new LinkedHashMap<>();
  private Set<String> leasedAtAnyKill;

  KillAudit(int port, List<Kill> kills, List<RequestLog.Request> requests, List<CrawlLogEntry> crawlLog) {
    this.port = port;
    this.kills = List.copyOf(kills);
    for (RequestLog.Request r : requests) {
      if (!r.target().equals("/robots.txt")) {
        byUrl.computeIfAbsent(url(r), u -> new ArrayList<>()).add(r);
      }
    }
    for (CrawlLogEntry e : crawlLog) {
      if (!e.url().endsWith("/robots.txt")) {
        settled.computeIfAbsent(e.url(), u -> new ArrayList<>()).add(e);
      }
    }
  }

  String url(RequestLog.Request r) {
    return "http://" + r.host() + ":" + port + r.target();
  }

  /** The run a request started in. */
  int run(RequestLog.Request r) {
    int run = 0;
    for (Kill kill : kills) {
      if (kill.goneNanos() < r.startNanos()) {
        run++;
      }
    }
    return run;
  }

  /** Requests that had started and not ended when the kill was sent: the site saw them cut or finished after it. */
  List<RequestLog.Request> inFlightAt(Kill kill) {
    List<RequestLog.Request> list = new ArrayList<>();
    byUrl.values().forEach(rs -> rs.stream()
        .filter(r -> r.startNanos() < kill.goneNanos() && r.endNanos() >= kill.atNanos()).forEach(list::add));
    return list;
  }

  /** URLs requested in the run the kill ended and again in a later run: leased when it came. */
  Set<String> leasedAt(Kill kill) {
    Set<String> urls = new LinkedHashSet<>();
    byUrl.forEach((url, rs) -> {
      boolean before = rs.stream().anyMatch(r -> run(r) == kill.number() - 1);
      boolean after = rs.stream().anyMatch(r -> run(r) >= kill.number());
      if (before && after) {
        urls.add(url);
      }
    });
    return urls;
  }

  /**
   * URLs requested on both sides of the kill that no batch in flight at it explains: each was
   * held by a worker when the process died, so there are at most as many as workers. A URL found
   * on a page leased at the kill is left out even if it was leased too: its queued copy may have
   * been fetched before the kill (the window between queueing and recording it as seen), and
   * then requested again after it without any lease being involved.
   */
  Set<String> heldAt(Kill kill) {
    Set<String> leased = leasedAt(kill);
    Set<String> held = new LinkedHashSet<>();
    for (String url : leased) {
      if (!foundOnOneOf(url, leased)) {
        held.add(url);
      }
    }
    return held;
  }

  Set<String> leasedAtAnyKill() {
    if (leasedAtAnyKill == null) {
      Set<String> urls = new LinkedHashSet<>();
      kills.forEach(k -> urls.addAll(leasedAt(k)));
      leasedAtAnyKill = Set.copyOf(urls);
    }
    return leasedAtAnyKill;
  }

  /** URLs requested more than once, with their request counts. */
  Map<String, Integer> requestedMoreThanOnce() {
    Map<String, Integer> map = new LinkedHashMap<>();
    byUrl.forEach((url, rs) -> {
      if (rs.size() > 1) {
        map.put(url, rs.size());
      }
    });
    return map;
  }

  /** Requests beyond the first of each URL. */
  int extraRequests() {
    return requestedMoreThanOnce().values().stream().mapToInt(n -> n - 1).sum();
  }

  /** URLs requested twice within one run: never a lease cut by a kill. */
  Set<String> requestedTwiceInOneRun() {
    Set<String> urls = new LinkedHashSet<>();
    byUrl.forEach((url, rs) -> {
      if (rs.stream().map(this::run).distinct().count() < rs.size()) {
        urls.add(url);
      }
    });
    return urls;
  }

  /** URLs settled (given a crawl-log line) more than once. */
  Set<String> settledMoreThanOnce() {
    Set<String> urls = new LinkedHashSet<>();
    settled.forEach((url, es) -> {
      if (es.size() > 1) {
        urls.add(url);
      }
    });
    return urls;
  }

  /** URLs found on a page leased at a kill (crawl-log via): their batch was in flight when the process died. */
  boolean foundOnPageLeasedAtAKill(String url) {
    return foundOnOneOf(url, leasedAtAnyKill());
  }

  /** Whether a crawl-log line of {@code url} names one of {@code pages} as the page it was found on. */
  private boolean foundOnOneOf(String url, Set<String> pages) {
    return settled.getOrDefault(url, List.of()).stream().anyMatch(e -> pages.contains(e.via()));
  }

  /** Every URL with a crawl-log line (robots.txt left out). */
  Set<String> settledUrls() {
    return settled.keySet();
  }

  /** A URL's requests (run, status, start and end relative to the kills) and crawl-log lines, for a failure message. */
  String explain(String url) {
    StringBuilder text = new StringBuilder(url);
    for (RequestLog.Request r : byUrl.getOrDefault(url, List.of())) {
      text.append("\n    request in run ").append(run(r)).append(": status ").append(r.status());
      for (Kill kill : kills) {
        text.append(String.format("; kill %d at %+.1f/%+.1f ms", kill.number(),
            (r.startNanos() - kill.atNanos()) / 1e6, (r.endNanos() - kill.atNanos()) / 1e6));
      }
    }
    for (CrawlLogEntry e : settled.getOrDefault(url, List.of())) {
      text.append("\n    crawl log: ").append(e.format());
    }
    return text.toString();
  }

  List<Kill> kills() {
    return kills;
  }
}
