package dev.crawler.stats;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.crawler.record.CrawlOutcome;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * The crawl's own counters at one moment: immutable, and the {@code crawl} part of stats.json,
 * so a resumed crawl can {@link CrawlStats#restore continue} its totals.
 *
 * <p>JSON field names are the component names; the maps are keyed by enum name and always hold
 * every value (zeros included) in enum order. Reading is lenient: unknown fields and unknown enum
 * names (a value renamed since the file was written) are ignored, missing ones read as 0.
 *
 * @param pages URLs taken from the frontier and settled, with any {@link CrawlOutcome}, requested
 *     or not (see {@link #requested()})
 * @param bytes body bytes kept
 * @param outcomes pages by outcome
 * @param statuses responses by status class
 * @param links discovered URLs by verdict
 * @param robotsFetches robots.txt files requested
 * @param crawlLogBytes the crawl log's length when the counters were read: its lines before it
 *     are in them (pages, outcomes, statuses, bytes, robots fetches), none after it; -1 if not
 *     known (no crawl log, or a stats.json written before this was kept). Boxed so that a file
 *     without it reads as -1: as a {@code long} Jackson would read 0, and a resume would count the
 *     whole log again on top of the totals.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record StatsSnapshot(long pages, long bytes, Map<CrawlOutcome, Long> outcomes, StatusClasses statuses,
    Map<LinkVerdict, Long> links, long robotsFetches, Long crawlLogBytes) {

  public static final StatsSnapshot EMPTY = new StatsSnapshot(0, 0, Map.of(), StatusClasses.NONE, Map.of(), 0);

  public StatsSnapshot {
    outcomes = complete(CrawlOutcome.class, outcomes);
    links = complete(LinkVerdict.class, links);
    statuses = statuses == null ? StatusClasses.NONE : statuses;
    crawlLogBytes = crawlLogBytes == null ? -1L : crawlLogBytes;
  }

  /** Counters not tied to a crawl log length. */
  public StatsSnapshot(long pages, long bytes, Map<CrawlOutcome, Long> outcomes, StatusClasses statuses,
      Map<LinkVerdict, Long> links, long robotsFetches) {
    this(pages, bytes, outcomes, statuses, links, robotsFetches, -1L);
  }

  /** The same counters, standing for the crawl log up to {@code length}. */
  public StatsSnapshot atCrawlLogLength(long length) {
    return new StatsSnapshot(pages, bytes, outcomes, statuses, links, robotsFetches, length);
  }

  /**
   * URLs the crawl requested (or tried to: a timeout, a refused connection): every settled URL
   * but those stopped before a request ({@link CrawlOutcome#spentAPage()}). The stats line's and
   * the summary's "pages", the number a server's request log shows, robots.txt aside.
   */
  public long requested() {
    long requested = pages;
    for (CrawlOutcome outcome : CrawlOutcome.values()) {
      if (!outcome.spentAPage()) {
        requested -= outcome(outcome);
      }
    }
    return requested;
  }

  public long outcome(CrawlOutcome outcome) {
    return outcomes.get(outcome);
  }

  public long links(LinkVerdict verdict) {
    return links.get(verdict);
  }

  /** Every discovered URL, whatever its verdict. */
  public long linksTotal() {
    return links.values().stream().mapToLong(Long::longValue).sum();
  }

  /**
   * Counter by counter sum: a resumed crawl's totals are the saved ones plus its own. The crawl
   * log length is {@code other}'s, the later of the two.
   */
  public StatsSnapshot plus(StatsSnapshot other) {
    Map<CrawlOutcome, Long> o = new EnumMap<>(CrawlOutcome.class);
    outcomes.forEach((k, v) -> o.put(k, v + other.outcome(k)));
    Map<LinkVerdict, Long> l = new EnumMap<>(LinkVerdict.class);
    links.forEach((k, v) -> l.put(k, v + other.links(k)));
    return new StatsSnapshot(pages + other.pages, bytes + other.bytes, o, statuses.plus(other.statuses), l,
        robotsFetches + other.robotsFetches, other.crawlLogBytes);
  }

  /** Counter by counter difference: what a run added to the totals it restored ({@code earlier}). */
  public StatsSnapshot minus(StatsSnapshot earlier) {
    Map<CrawlOutcome, Long> o = new EnumMap<>(CrawlOutcome.class);
    outcomes.forEach((k, v) -> o.put(k, v - earlier.outcome(k)));
    Map<LinkVerdict, Long> l = new EnumMap<>(LinkVerdict.class);
    links.forEach((k, v) -> l.put(k, v - earlier.links(k)));
    StatusClasses e = earlier.statuses;
    StatusClasses s = new StatusClasses(statuses.informational() - e.informational(),
        statuses.successful() - e.successful(), statuses.redirection() - e.redirection(),
        statuses.clientError() - e.clientError(), statuses.serverError() - e.serverError(), statuses.other() - e.other());
    return new StatsSnapshot(pages - earlier.pages, bytes - earlier.bytes, o, s, l, robotsFetches - earlier.robotsFetches,
        -1L);
  }

  /**
   * The crawl's counters from a stats.json written by {@link StatsReporter}.
   *
   * @throws java.io.UncheckedIOException naming the file if it is missing or not a stats file
   */
  public static StatsSnapshot readFrom(Path statsJson) {
    return StatsFile.read(statsJson).crawl();
  }

  private static <E extends Enum<E>> Map<E, Long> complete(Class<E> type, Map<E, Long> counts) {
    Map<E, Long> all = new EnumMap<>(type);
    for (E value : type.getEnumConstants()) {
      all.put(value, 0L);
    }
    if (counts != null) {
      // A null key is an enum name this version does not know (READ_UNKNOWN_ENUM_VALUES_AS_NULL).
      counts.forEach((k, v) -> {
        if (k != null && v != null) {
          all.put(k, v);
        }
      });
    }
    return Collections.unmodifiableMap(all);
  }

  /**
   * Responses by the first digit of their status code; {@code other} counts codes outside
   * 100..599 (some servers answer 999).
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record StatusClasses(
      @JsonProperty("1xx") long informational,
      @JsonProperty("2xx") long successful,
      @JsonProperty("3xx") long redirection,
      @JsonProperty("4xx") long clientError,
      @JsonProperty("5xx") long serverError,
      @JsonProperty("other") long other) {

    public static final StatusClasses NONE = new StatusClasses(0, 0, 0, 0, 0, 0);

    public long total() {
      return informational + successful + redirection + clientError + serverError + other;
    }

    StatusClasses plus(StatusClasses o) {
      return new StatusClasses(informational + o.informational, successful + o.successful,
          redirection + o.redirection, clientError + o.clientError, serverError + o.serverError, other + o.other);
    }
  }
}
