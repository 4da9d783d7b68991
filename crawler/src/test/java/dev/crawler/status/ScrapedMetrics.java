package dev.crawler.status;

import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_35_0.Metrics;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One scrape of {@code /metrics}, read by the Prometheus Java client's own parser: the client
 * ships no reader of the text format, so the scrape asks for its protobuf exposition, as a
 * Prometheus server may, and parses it with the client's generated {@code MetricFamily}.
 */
final class ScrapedMetrics {
  static final String PROTOBUF = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;"
      + "encoding=delimited";

  private final Map<String, Metrics.MetricFamily> families;

  private ScrapedMetrics(Map<String, Metrics.MetricFamily> families) {
    this.families = families;
  }

  static ScrapedMetrics scrape(URI page) throws IOException, InterruptedException {
    HttpResponse<InputStream> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(page.resolve("metrics")).header("Accept", PROTOBUF).build(),
        HttpResponse.BodyHandlers.ofInputStream());
    if (response.statusCode() != 200) {
      throw new IOException("/metrics answered " + response.statusCode());
    }
    Map<String, Metrics.MetricFamily> families = new LinkedHashMap<>();
    try (InputStream in = response.body()) {
      Metrics.MetricFamily family;
      while ((family = Metrics.MetricFamily.parseDelimitedFrom(in)) != null) {
        families.put(family.getName(), family);
      }
    }
    return new ScrapedMetrics(families);
  }

  Set<String> names() {
    return new TreeSet<>(families.keySet());
  }

  Metrics.MetricFamily family(String name) {
    Metrics.MetricFamily family = families.get(name);
    if (family == null) {
      throw new AssertionError("no metric " + name + " in " + names());
    }
    return family;
  }

  /** The value of the one sample of {@code name} whose labels include {@code labels} (name, value pairs). */
  double value(String name, String... labels) {
    for (Metrics.Metric metric : family(name).getMetricList()) {
      if (hasLabels(metric, labels)) {
        return switch (family(name).getType()) {
          case COUNTER -> metric.getCounter().getValue();
          case GAUGE -> metric.getGauge().getValue();
          case HISTOGRAM -> metric.getHistogram().getSampleCount();
          default -> metric.getUntyped().getValue();
        };
      }
    }
    throw new AssertionError("no sample of " + name + " with labels " + List.of(labels));
  }

  /** Every label name of every metric, with the number of values each takes. */
  Map<String, Set<String>> labelValues() {
    Map<String, Set<String>> values = new LinkedHashMap<>();
    for (Metrics.MetricFamily family : families.values()) {
      for (Metrics.Metric metric : family.getMetricList()) {
        for (Metrics.LabelPair pair : metric.getLabelList()) {
          values.computeIfAbsent(family.getName() + "{" + pair.getName() + "}", k -> new TreeSet<>()).add(pair.getValue());
        }
      }
    }
    return values;
  }

  List<Double> bucketBounds(String histogram) {
    List<Double> bounds = new ArrayList<>();
    family(histogram).getMetric(0).getHistogram().getBucketList().forEach(b -> bounds.add(b.getUpperBound()));
    return bounds;
  }

  private static boolean hasLabels(Metrics.Metric metric, String... labels) {
    for (int i = 0; i < labels.length; i += 2) {
      String name = labels[i];
      String value = labels[i + 1];
      if (metric.getLabelList().stream().noneMatch(p -> p.getName().equals(name) && p.getValue().equals(value))) {
        return false;
      }
    }
    return true;
  }
}
