package dev.crawler.status;

import dev.crawler.config.ListenAddress;
import dev.crawler.stats.StatsFile;
import dev.crawler.stats.VisitWatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status page and metrics of one running crawl: the part the crawl's assembly builds. Give
 * {@link #reports()} to the stats reporter and {@link #watch()} to the visits; while it is open,
 * the crawl folder's {@value #ADDRESS_FILE} names the page's URL, so {@code crawler status DIR}
 * finds it.
 */
public final class CrawlStatus implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CrawlStatus.class);
  /** The file in the crawl folder that holds the URL of the running crawl's page. */
  public static final String ADDRESS_FILE = "status.url";

  private final LatestReport report = new LatestReport();
  private final HostBoard hosts;
  private final CrawlMetrics metrics;
  private final StatusServer server;
  private final Path addressFile;
  private final String url;

  /**
   * What the page says the crawl is.
   *
   * @param config the effective configuration as YAML
   */
  public record About(String version, Path dataDir, String config, int suspendAfter) {}

  /** The crawl's RocksDB native memory, each -1 when it cannot tell. */
  public record NativeMemory(LongSupplier frontierBlockCache, LongSupplier frontierMemtables,
      LongSupplier seenStore) {}

  /** A figure of the crawl's placement read at each scrape, as a gauge of {@code /metrics}. */
  public record LiveGauge(String name, String description, DoubleSupplier value) {}

  private CrawlStatus(ListenAddress at, About about, NativeMemory memory, Path addressFile) throws IOException {
    this.hosts = new HostBoard(about.suspendAfter());
    this.metrics = new CrawlMetrics(report, new CrawlMetrics.NativeMemory(memory.frontierBlockCache(),
        memory.frontierMemtables(), memory.seenStore()));
    Instant started = Instant.now();
    try {
      this.server = StatusServer.start(at, since -> new StatusDocument(about.version(), started.toString(),
          Duration.between(started, Instant.now()).toMillis() / 1000.0, Instant.now().toString(),
          about.dataDir().toString(), report.latest(), report.historySince(since), hosts.board(),
          about.suspendAfter(), about.config()), metrics);
    } catch (IOException | RuntimeException e) {
      metrics.close();
      throw e;
    }
    var address = server.address();
    String host = address.getAddress().isAnyLocalAddress() ? "127.0.0.1" : address.getHostString();
    this.url = "http://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort() + "/";
    this.addressFile = addressFile;
    Files.writeString(addressFile, url + "\n", StandardCharsets.UTF_8);
  }

  /**
   * Starts the server at {@code at}.
   *
   * @param addressFile where to write the page's URL while it runs
   * @throws IOException when the address is in use (the message says what to change)
   */
  public static CrawlStatus start(ListenAddress at, About about, NativeMemory memory, Path addressFile)
      throws IOException {
    CrawlStatus status = new CrawlStatus(at, about, memory, addressFile);
    log.info("Status page on {} (metrics at {}metrics)", status.url, status.url);
    return status;
  }

  /** Adds {@code gauges} to {@code /metrics}, read at each scrape. */
  public void register(List<LiveGauge> gauges) {
    gauges.forEach(metrics::live);
  }

  /** The page's address, such as {@code http://127.0.0.1:9477/}. */
  public String url() {
    return url;
  }

  public Consumer<StatsFile> reports() {
    return report;
  }

  /** Fetch latency for the metrics, per-host activity and errors for the page. */
  public VisitWatch watch() {
    return (hostKey, u, outcome, httpStatus, took, detail) -> {
      metrics.visited(hostKey, u, outcome, httpStatus, took, detail);
      hosts.visited(hostKey, u, outcome, httpStatus, took, detail);
    };
  }

  @Override
  public void close() throws IOException {
    try {
      server.close();
      metrics.close();
    } finally {
      Files.deleteIfExists(addressFile);
    }
  }
}
