package dev.crawler.status;

import dev.crawler.dedup.UrlSeenStats;
import dev.crawler.frontier.FrontierStats;
import dev.crawler.record.CrawlOutcome;
import dev.crawler.stats.LinkVerdict;
import dev.crawler.stats.StatsFile;
import dev.crawler.stats.StatsSnapshot;
import dev.crawler.stats.VisitWatch;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;

/**
 * Every counter of stats.json as a Prometheus metric, named with its unit
 * ({@code crawler_pages_total}, {@code crawler_body_bytes_total}), read from the stats reporter's
 * last report; plus fetch latency as a histogram, the JVM's figures and RocksDB's native memory,
 * read at each scrape. Labels take only enum values (outcome, status class, link verdict).
 */
final class CrawlMetrics implements VisitWatch, AutoCloseable {
  /** Bucket bounds of the fetch latency histogram: from a loopback page to the default total timeout. */
  private static final Duration[] LATENCY_BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(10),
      Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
      Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5),
      Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(2)};

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final LatestReport report;
  private final Timer fetchLatency;
  private final JvmGcMetrics gc = new JvmGcMetrics();

  /** What native memory the crawl's RocksDB databases hold; each a -1-for-unknown reading. */
  record NativeMemory(LongSupplier frontierBlockCache, LongSupplier frontierMemtables, LongSupplier seenStore) {}

  CrawlMetrics(LatestReport report, NativeMemory memory) {
    this.report = report;
    bindCrawl();
    bindFrontier();
    bindSeen();
    gauge("crawler.stats.report.time", "seconds", "When the counters of the last stats report were taken",
        r -> Instant.parse(r.time()).toEpochMilli() / 1000.0);
    this.fetchLatency = Timer.builder("crawler.fetch.duration")
        .description("Time of a fetch that made a request, body included")
        .serviceLevelObjectives(LATENCY_BUCKETS)
        .register(registry);
    live("crawler.frontier.rocksdb.block.cache", "Native memory of the frontier's RocksDB block cache in use, memtables included",
        memory.frontierBlockCache());
    live("crawler.frontier.rocksdb.memtables", "Native memory of the frontier's RocksDB memtables",
        memory.frontierMemtables());
    live("crawler.seen.rocksdb.memory", "Native memory of the exact store (block cache in use and memtables)",
        memory.seenStore());
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
  }

  private void bindCrawl() {
    counter("crawler.pages", null, "URLs taken from the frontier and settled, with any outcome",
        r -> r.crawl().pages());
    for (CrawlOutcome outcome : CrawlOutcome.values()) {
      FunctionCounter.builder("crawler.page.outcomes", report, r -> crawl(r).outcome(outcome))
          .tag("outcome", label(outcome)).description("Settled URLs by outcome").register(registry);
    }
    String[] classes = {"1xx", "2xx", "3xx", "4xx", "5xx", "other"};
    for (String statusClass : classes) {
      FunctionCounter.builder("crawler.responses", report, r -> statusClass(crawl(r).statuses(), statusClass))
          .tag("status_class", statusClass).description("HTTP responses by status class").register(registry);
    }
    counter("crawler.body", "bytes", "Body bytes kept", r -> r.crawl().bytes());
    for (LinkVerdict verdict : LinkVerdict.values()) {
      FunctionCounter.builder("crawler.links", report, r -> crawl(r).links(verdict))
          .tag("verdict", label(verdict)).description("Discovered URLs by verdict").register(registry);
    }
    counter("crawler.robots.fetches", null, "robots.txt files requested", r -> r.crawl().robotsFetches());
  }

  private void bindFrontier() {
    frontierGauge("crawler.frontier.urls", "URLs in the queues, leased ones included", FrontierStats::queuedUrls);
    frontierGauge("crawler.frontier.hosts", "Hosts (queues) in the schedule", FrontierStats::hosts);
    frontierGauge("crawler.frontier.ready.hosts", "Hosts that may be fetched now", FrontierStats::readyHosts);
    frontierGauge("crawler.frontier.leased.urls", "URLs handed out and not yet completed", FrontierStats::leasedUrls);
  }

  private void bindSeen() {
    seenCounter("crawler.seen.checks", "URLs asked about", UrlSeenStats::checks);
    seenCounter("crawler.seen.new", "URLs answered new", UrlSeenStats::newUrls);
    seenCounter("crawler.seen.duplicates", "URLs answered seen", UrlSeenStats::seen);
    seenCounter("crawler.seen.recent.hits", "Seen answers from the memory of recent URLs", UrlSeenStats::recentHits);
    seenCounter("crawler.seen.filter.maybes", "The filter's maybe answers", UrlSeenStats::filterMaybes);
    seenCounter("crawler.seen.store.reads", "Fingerprints looked up in the exact store", UrlSeenStats::storeReads);
    seenCounter("crawler.seen.false.positives.verified", "Maybe answers the exact store proved wrong",
        UrlSeenStats::caughtFalsePositives);
    seenGauge("crawler.seen.false.positives.skipped.estimated", null,
        "New URLs the filter alone probably skipped (policy accept)", UrlSeenStats::estimatedSkips);
    seenGauge("crawler.seen.filters", null, "Bloom filters stacked", UrlSeenStats::filters);
    seenGauge("crawler.seen.filter.fill", "ratio", "Bits set over all bits of the filters", UrlSeenStats::fillRatio);
    seenGauge("crawler.seen.false.positive.rate.estimated", "ratio", "The filters' false-positive rate now",
        UrlSeenStats::estimatedRate);
    seenGauge("crawler.seen.filter.memory", "bytes", "The filters' memory", UrlSeenStats::filterBytes);
  }

  @Override
  public void visited(String hostKey, String url, CrawlOutcome outcome, int httpStatus, Duration took,
      String detail) {
    if (took != null) {
      fetchLatency.record(took);
    }
  }

  /** Writes the metrics in the format the Accept header asks for: text, OpenMetrics or protobuf. */
  String scrape(OutputStream out, String accept) throws IOException {
    String type = accept == null ? "" : accept;
    String contentType = type.contains("application/vnd.google.protobuf")
        ? "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited"
        : type.contains("application/openmetrics-text") ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
        : "text/plain; version=0.0.4; charset=utf-8";
    registry.scrape(out, contentType);
    return contentType;
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }

  // ---------------------------------------------------------------- helpers

  private StatsSnapshot crawl(LatestReport r) {
    StatsFile latest = r.latest();
    return latest == null ? StatsSnapshot.EMPTY : latest.crawl();
  }

  private void counter(String name, String unit, String description, ToDoubleFunction<StatsFile> value) {
    FunctionCounter.builder(name, report, r -> r.latest() == null ? 0 : value.applyAsDouble(r.latest()))
        .baseUnit(unit).description(description).register(registry);
  }

  private void gauge(String name, String unit, String description, ToDoubleFunction<StatsFile> value) {
    Gauge.builder(name, report, r -> r.latest() == null ? Double.NaN : value.applyAsDouble(r.latest()))
        .baseUnit(unit).description(description).register(registry);
  }

  private void frontierGauge(String name, String description, ToDoubleFunction<FrontierStats> value) {
    gauge(name, null, description, r -> r.frontier() == null ? Double.NaN : value.applyAsDouble(r.frontier()));
  }

  private void seenCounter(String name, String description, ToDoubleFunction<UrlSeenStats> value) {
    counter(name, null, description, r -> r.seen() == null ? 0 : value.applyAsDouble(r.seen()));
  }

  private void seenGauge(String name, String unit, String description, ToDoubleFunction<UrlSeenStats> value) {
    gauge(name, unit, description, r -> r.seen() == null ? Double.NaN : value.applyAsDouble(r.seen()));
  }

  /** A gauge read at each scrape; a reading that fails is NaN, not a failed scrape. */
  void live(CrawlStatus.LiveGauge g) {
    Gauge.builder(g.name(), g.value(), v -> {
      try {
        return v.getAsDouble();
      } catch (RuntimeException e) {
        return Double.NaN;
      }
    }).strongReference(true)   // the placement keeps no other reference to its suppliers
        .description(g.description()).register(registry);
  }

  private void live(String name, String description, LongSupplier bytes) {
    Gauge.builder(name, bytes, b -> {
      long v = b.getAsLong();
      return v < 0 ? Double.NaN : v;
    }).baseUnit("bytes").description(description).register(registry);
  }

  private static long statusClass(StatsSnapshot.StatusClasses s, String statusClass) {
    return switch (statusClass) {
      case "1xx" -> s.informational();
      case "2xx" -> s.successful();
      case "3xx" -> s.redirection();
      case "4xx" -> s.clientError();
      case "5xx" -> s.serverError();
      default -> s.other();
    };
  }

  static String label(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }
}
