package dev.crawler.status;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.crawler.dedup.FilterFill;
import dev.crawler.record.CrawlOutcome;
import dev.crawler.stats.LinkVerdict;
import dev.crawler.stats.StatsFile;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The status page's figures as text, for {@code crawler status}: from a running crawl's
 * {@code /status.json}, or from the stats.json a finished (or stopped) crawl left.
 */
public final class StatusText {
  private static final ObjectMapper JSON = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL)
      .build();
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private StatusText() {}

  /**
   * The running crawl's status from its page at {@code page} ({@code http://host:port/}).
   *
   * @throws IOException if it does not answer, or not with a status document
   */
  public static String fromEndpoint(URI page) throws IOException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    try {
      HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(page.resolve("status.json"))
          .timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 200) {
        throw new IOException(page + " answered " + response.statusCode());
      }
      StatusDocument doc = JSON.readValue(response.body(), StatusDocument.class);
      List<String> lines = new ArrayList<>();
      lines.add("Running crawl in " + doc.dataDir() + ", crawler " + doc.version() + ", up "
          + seconds(doc.uptimeSeconds()) + " (" + page + ")");
      if (doc.report() == null) {
        lines.add("No stats report yet.");
      } else {
        figures(doc.report(), lines);
      }
      hosts(doc.hosts(), lines);
      return String.join("\n", lines) + "\n";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while asking " + page, e);
    }
  }

  /** A crawl's status from the stats.json in its folder. */
  public static String fromStatsJson(Path statsJson) {
    StatsFile report = StatsFile.read(statsJson);
    List<String> lines = new ArrayList<>();
    lines.add("Crawl in " + statsJson.getParent() + ", not running: figures of its last stats report");
    figures(report, lines);
    return String.join("\n", lines) + "\n";
  }

  /** The URL a running crawl's folder names for its page, if it has one. */
  public static Optional<URI> pageOf(Path crawlDir) throws IOException {
    Path file = crawlDir.resolve(CrawlStatus.ADDRESS_FILE);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    return Optional.of(URI.create(Files.readString(file).strip()));
  }

  static void figures(StatsFile r, List<String> lines) {
    var c = r.crawl();
    lines.add("report at " + r.time() + ", run " + seconds(r.runSeconds()));
    lines.add(String.format(Locale.US, "pages %,d (%.1f/s last interval, %.1f/s this run) | bytes %,d | robots.txt %,d",
        c.pages(), r.pagesPerSecond(), r.averagePagesPerSecond(), c.bytes(), c.robotsFetches()));
    var s = c.statuses();
    lines.add(String.format(Locale.US, "responses 1xx %,d 2xx %,d 3xx %,d 4xx %,d 5xx %,d other %,d",
        s.informational(), s.successful(), s.redirection(), s.clientError(), s.serverError(), s.other()));
    StringBuilder outcomes = new StringBuilder("outcomes");
    for (CrawlOutcome o : CrawlOutcome.values()) {
      if (c.outcome(o) > 0) {
        outcomes.append(String.format(Locale.US, " %s %,d", CrawlMetrics.label(o), c.outcome(o)));
      }
    }
    lines.add(outcomes.toString());
    StringBuilder links = new StringBuilder("links");
    for (LinkVerdict v : LinkVerdict.values()) {
      if (c.links(v) > 0) {
        links.append(String.format(Locale.US, " %s %,d", CrawlMetrics.label(v), c.links(v)));
      }
    }
    lines.add(links.toString());
    if (r.frontier() != null) {
      var f = r.frontier();
      lines.add(String.format(Locale.US, "frontier %,d URLs in %,d hosts (ready %,d, leased %,d)", f.queuedUrls(),
          f.hosts(), f.readyHosts(), f.leasedUrls()));
    }
    if (r.seen() != null) {
      var seen = r.seen();
      lines.add(String.format(Locale.US, "seen: checks %,d, new %,d, duplicates %,d | fp verified %,d, est. skipped %.1f",
          seen.checks(), seen.newUrls(), seen.seen(), seen.caughtFalsePositives(), seen.estimatedSkips()));
      lines.add(String.format(Locale.US, "filter: %d stacked, %.4f%% full, est. false-positive rate %.6f%%",
          seen.filters(), seen.fillRatio() * 100, seen.estimatedRate() * 100));
      int i = 1;
      for (FilterFill filter : seen.stack()) {
        lines.add(String.format(Locale.US, "  filter %d: m=%,d bits, k=%d, n≈%,.0f of capacity %,d, "
                + "p=(1-e^(-kn/m))^k=%.3g", i++, filter.bits(), filter.hashes(), filter.estimatedKeys(),
            filter.capacity(), filter.curveRate(filter.estimatedKeys())));
      }
    }
  }

  private static void hosts(HostBoard.Board board, List<String> lines) {
    if (board == null) {
      return;
    }
    hostList("busiest hosts", board.busiest(), h -> String.format(Locale.US, "%,d pages", h.pages()), lines);
    hostList("slowest hosts", board.slowest(),
        h -> String.format(Locale.US, "%.0f ms a fetch", h.meanFetchSeconds() * 1000), lines);
    hostList("backing off", board.backingOff(), StatusText::failing, lines);
    hostList("suspended", board.suspended(), StatusText::failing, lines);
    lines.add("latest errors:" + (board.latestErrors().isEmpty() ? " none" : ""));
    board.latestErrors().stream().limit(10).forEach(e -> lines.add("  " + e.time() + " "
        + (e.outcome() == null ? "?" : CrawlMetrics.label(e.outcome())) + (e.httpStatus() > 0 ? " " + e.httpStatus() : "")
        + " " + e.url() + (e.detail() == null ? "" : " (" + e.detail() + ")")));
  }

  private static String failing(HostActivity.HostFigures h) {
    return h.failuresInARow() + " failed in a row" + (h.lastError() == null ? "" : ", last: " + h.lastError());
  }

  private static void hostList(String title, List<HostActivity.HostFigures> hosts,
      java.util.function.Function<HostActivity.HostFigures, String> figure, List<String> lines) {
    lines.add(title + ":" + (hosts.isEmpty() ? " none" : ""));
    hosts.forEach(h -> lines.add("  " + h.host() + "  " + figure.apply(h)));
  }

  private static String seconds(double s) {
    long t = (long) s;
    return t < 60 ? t + "s" : t < 3600 ? String.format(Locale.US, "%dm %02ds", t / 60, t % 60)
        : String.format(Locale.US, "%dh %02dm %02ds", t / 3600, t / 60 % 60, t % 60);
  }
}
