package dev.crawler.stats;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.crawler.dedup.UrlSeenStats;
import dev.crawler.frontier.FrontierStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The contents of stats.json: the crawl's counters, the frontier's and the URL-seen service's,
 * and the rates, pretty-printed so a person (or {@code jq}) can read it during the crawl. After a
 * resume some figures are the whole crawl's and some this run's: {@code scope} says which, field
 * by field, in the file itself.
 *
 * <p>Written whole to a temporary file beside it, forced to disk, and moved over it with
 * {@code ATOMIC_MOVE}: a reader, or a crawl resumed after kill -9 or a power cut, sees the old
 * file or the new one, never half of one. {@code format} is the layout's version; readers ignore
 * fields they do not know.
 *
 * @param format layout version, {@value #FORMAT}: 2 added {@code scope}, {@code thisRun} and
 *     {@code failures}; a reader of 1 reads 2 (it ignores the new fields)
 * @param scope for each other field, whether it counts this run or the whole crawl (every run)
 * @param time when the numbers were taken, ISO-8601 UTC
 * @param runSeconds seconds since this run started
 * @param pagesPerSecond pages requested per second over the last interval
 * @param averagePagesPerSecond over this run
 * @param crawl the crawl's counters, totals of every run (what a resume continues)
 * @param thisRun the same counters, this run's part of them
 * @param frontier null if there was none
 * @param seen null if there was none
 * @param failures this run's failures: by status class and outcome with example URLs, and the
 *     hosts with the most
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"format", "scope", "time", "runSeconds", "pagesPerSecond", "averagePagesPerSecond", "crawl",
    "thisRun", "frontier", "seen", "failures"})
public record StatsFile(int format, Map<String, String> scope, String time, double runSeconds, double pagesPerSecond,
    double averagePagesPerSecond, StatsSnapshot crawl, StatsSnapshot thisRun, FrontierStats frontier, UrlSeenStats seen,
    FailureSummary failures) {

  static final int FORMAT = 2;

  /** What each field counts, written into the file so that a reader after a resume need not guess. */
  static final Map<String, String> SCOPE = scopes();

  private static Map<String, String> scopes() {
    Map<String, String> scope = new LinkedHashMap<>();
    scope.put("runSeconds", "this run");
    scope.put("pagesPerSecond", "this run, over the last stats interval");
    scope.put("averagePagesPerSecond", "this run");
    scope.put("crawl", "the whole crawl: every run, this one included");
    scope.put("thisRun", "this run");
    scope.put("frontier", "now; fetched, retried and failed: the whole crawl");
    scope.put("seen", "checks and answers: this run; filter figures: the whole crawl's filter, now");
    scope.put("failures", "this run");
    return Collections.unmodifiableMap(scope);
  }

  static final ObjectMapper JSON = JsonMapper.builder()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL)
      .build();

  public StatsFile {
    crawl = crawl == null ? StatsSnapshot.EMPTY : crawl;
  }

  static StatsFile of(Sample start, Sample previous, Sample now) {
    return new StatsFile(FORMAT, SCOPE, now.time().toString(),
        java.time.Duration.between(start.time(), now.time()).toMillis() / 1000.0,
        round(now.pagesPerSecondSince(previous)), round(now.pagesPerSecondSince(start)), now.crawl(),
        now.crawl().minus(start.crawl()), now.frontier(), now.seen(), now.failures());
  }

  void writeAtomically(Path file) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(this);
    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
    try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        out.write(buffer);
      }
      out.force(true);
    }
    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * Reads a stats.json.
   *
   * @throws UncheckedIOException naming the file if it is missing or not a stats file
   */
  public static StatsFile read(Path file) {
    try {
      return JSON.readValue(file.toFile(), StatsFile.class);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read stats file " + file + ": " + e.getMessage(), e);
    }
  }

  private static double round(double rate) {
    return Math.round(rate * 100) / 100.0;
  }
}
