package dev.crawler.config;

import static dev.crawler.config.internal.ConfigKeys.*;

import dev.crawler.config.internal.ConfigWriter;
import dev.crawler.config.internal.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The whole crawl configuration, immutable and typed, one record per YAML section.
 * Made by {@link ConfigLoader}; every value has been checked, so users of it need not
 * check again. Defaults and documentation of each key live in {@code ConfigKeys}.
 */
public final class CrawlConfig {
  private final String source;
  private final Settings settings;

  private final Crawl crawl;
  private final Politeness politeness;
  private final Fetch fetch;
  private final Scope scope;
  private final Normalize normalize;
  private final Seen seen;
  private final Robots robots;
  private final Parse parse;
  private final Frontier frontier;
  private final Output output;
  private final Stats stats;
  private final Status status;
  private final Cluster cluster;

  CrawlConfig(String source, Settings s) {
    this.source = source;
    this.settings = s;
    this.crawl = new Crawl(s.get(CRAWL_SEEDS), s.get(CRAWL_DATA_DIR),
        UserAgent.of(s.get(CRAWL_USER_AGENT_NAME), s.get(CRAWL_USER_AGENT_CONTACT)),
        new Limits(s.get(CRAWL_MAX_PAGES), s.get(CRAWL_MAX_DEPTH), s.get(CRAWL_MAX_PAGES_PER_HOST),
            s.get(CRAWL_MAX_DURATION)));
    this.politeness = new Politeness(s.get(POLITENESS_DEFAULT_DELAY), s.get(POLITENESS_MAX_CRAWL_DELAY),
        s.get(POLITENESS_CONNECTIONS_PER_HOST), s.get(POLITENESS_QUEUE_BY), s.get(POLITENESS_MAX_RETRY_AFTER),
        new ErrorBackoff(s.get(POLITENESS_BACKOFF_INITIAL), s.get(POLITENESS_BACKOFF_MAX),
            s.get(POLITENESS_SUSPEND_AFTER), s.get(POLITENESS_SUSPEND_FOR)));
    this.fetch = new Fetch(s.get(FETCH_WORKERS), s.get(FETCH_MAX_CONNECTIONS),
        new Timeouts(s.get(FETCH_CONNECT_TIMEOUT), s.get(FETCH_READ_TIMEOUT), s.get(FETCH_TOTAL_TIMEOUT)),
        s.get(FETCH_MAX_CONTENT), s.get(FETCH_MAX_REDIRECTS), s.get(FETCH_CONTENT_TYPES));
    this.scope = new Scope(s.get(SCOPE_MODE), s.get(SCOPE_INCLUDE), s.get(SCOPE_EXCLUDE), s.get(SCOPE_ALLOW_PRIVATE),
        s.get(SCOPE_MAX_URL_LENGTH), s.get(SCOPE_MAX_REPEATED_SEGMENTS), s.get(SCOPE_MAX_QUERY_PARAMETERS));
    this.normalize = new Normalize(s.get(NORMALIZE_STRIP_PARAMETERS), s.get(NORMALIZE_SORT_QUERY));
    this.seen = new Seen(s.get(SEEN_EXPECTED_URLS), s.get(SEEN_FALSE_POSITIVE_RATE), s.get(SEEN_MEMORY_BUDGET),
        s.get(SEEN_FILTER_LAYOUT), s.get(SEEN_POLICY), s.get(SEEN_ON_CAPACITY), s.get(SEEN_RECENT_MEMORY),
        s.get(SEEN_STORE_CACHE));
    this.robots = new Robots(s.get(ROBOTS_CACHE_HOSTS), s.get(ROBOTS_CACHE_EXPIRY), s.get(ROBOTS_SITEMAPS));
    this.parse = new Parse(s.get(PARSE_OBEY_REL_NOFOLLOW));
    // In a cluster the cluster's partitions split the frontier (frontier.partitions is then unused).
    int partitions = s.get(CLUSTER_BOOTSTRAP_SERVERS).isEmpty() ? s.get(FRONTIER_PARTITIONS) : s.get(CLUSTER_PARTITIONS);
    this.frontier = new Frontier(s.get(FRONTIER_SYNC), partitions, s.get(FRONTIER_WORKING_SET_HOSTS),
        s.get(FRONTIER_KNOWN_HOSTS), s.get(FRONTIER_READ_AHEAD), s.get(FRONTIER_BLOCK_CACHE),
        s.get(FRONTIER_MEMTABLES));
    this.output = new Output(s.get(OUTPUT_WARC), s.get(OUTPUT_WARC_MAX_FILE), s.get(OUTPUT_WARC_COMPRESSION),
        s.get(OUTPUT_CRAWL_LOG));
    this.stats = new Stats(s.get(STATS_INTERVAL));
    this.status = new Status(s.get(STATUS_LISTEN));
    this.cluster = new Cluster(s.get(CLUSTER_BOOTSTRAP_SERVERS), s.get(CLUSTER_NAME), s.get(CLUSTER_PARTITIONS),
        s.get(CLUSTER_NODE_ID).isEmpty() ? Optional.empty() : Optional.of(s.get(CLUSTER_NODE_ID)));
  }

  /** The configuration of an empty file: every key at its default. */
  public static CrawlConfig defaults() {
    return new CrawlConfig("defaults", Settings.defaults());
  }

  /** Where this configuration was read from: a file name, or "defaults". */
  public String source() {
    return source;
  }

  public Crawl crawl() {
    return crawl;
  }

  public Politeness politeness() {
    return politeness;
  }

  public Fetch fetch() {
    return fetch;
  }

  public Scope scope() {
    return scope;
  }

  public Normalize normalize() {
    return normalize;
  }

  public Seen seen() {
    return seen;
  }

  public Robots robots() {
    return robots;
  }

  public Parse parse() {
    return parse;
  }

  public Frontier frontier() {
    return frontier;
  }

  public Output output() {
    return output;
  }

  public Stats stats() {
    return stats;
  }

  public Status status() {
    return status;
  }

  public Cluster cluster() {
    return cluster;
  }

  /**
   * Checks what a real crawl needs beyond a valid file: a user agent name, as
   * StormCrawler insists on {@code http.agent.name}, so servers know who is calling.
   *
   * @throws ConfigException naming the key and, if the file sets it, its line
   */
  public void requireReadyToCrawl() {
    if (crawl.userAgent.name().isEmpty()) {
      String where = settings.isSet(CRAWL_USER_AGENT_NAME) ? "is empty" : "is not set";
      throw new ConfigException(source, List.of(new ConfigProblem(settings.line(CRAWL_USER_AGENT_NAME),
          CRAWL_USER_AGENT_NAME.path(), where + "; a crawl must name itself to the servers it visits, "
              + "such as 'examplebot' (letters, '-' and '_')")));
    }
  }

  /** The effective configuration as YAML; keys that differ from their default say so. */
  public String toYaml() {
    return ConfigWriter.write(settings, false);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CrawlConfig other && toYaml().equals(other.toYaml());
  }

  @Override
  public int hashCode() {
    return toYaml().hashCode();
  }

  @Override
  public String toString() {
    return "CrawlConfig from " + source;
  }

  // ---------------------------------------------------------------- sections

  public record Crawl(Path seeds, Path dataDir, UserAgent userAgent, Limits limits) {}

  /**
   * {@code name} may be empty in a file that is only checked; {@link #requireReadyToCrawl} refuses that.
   *
   * @param name the robots.txt product token, what robots.txt groups are matched on
   * @param version the version given after the name ({@code examplebot/1.2}); empty for none
   */
  public record UserAgent(String name, String version, String contactUrl) {
    /** From crawl.user-agent.name, {@code name} or {@code name/version}, and the contact URL. */
    static UserAgent of(String nameAndVersion, String contactUrl) {
      int slash = nameAndVersion.indexOf('/');
      return slash < 0 ? new UserAgent(nameAndVersion, "", contactUrl)
          : new UserAgent(nameAndVersion.substring(0, slash), nameAndVersion.substring(slash + 1), contactUrl);
    }

    /** The User-Agent header: {@code name/version (+contact)}, with {@code crawlerVersion} if the name gave none. */
    public String header(String crawlerVersion) {
      String product = name + "/" + (version.isEmpty() ? crawlerVersion : version);
      return contactUrl.isEmpty() ? product : product + " (+" + contactUrl + ")";
    }
  }

  /** Empty values mean unlimited. */
  public record Limits(OptionalLong maxPages, OptionalLong maxDepth, OptionalLong maxPagesPerHost,
      Optional<Duration> maxDuration) {}

  /** {@code queueBy}: the frontier's queue key, so what {@code defaultDelay} and {@code connectionsPerHost} cover. */
  public record Politeness(Duration defaultDelay, Duration maxCrawlDelay, int connectionsPerHost, QueueBy queueBy,
      Duration maxRetryAfter, ErrorBackoff errorBackoff) {
    public enum QueueBy { HOST, DOMAIN, IP }
  }

  public record ErrorBackoff(Duration initial, Duration max, int suspendAfter, Duration suspendFor) {}

  public record Fetch(int workers, int maxConnections, Timeouts timeouts, DataSize maxContentBytes,
      int maxRedirects, List<String> acceptedContentTypes) {}

  public record Timeouts(Duration connect, Duration read, Duration total) {}

  public record Scope(Mode mode, List<String> include, List<String> exclude, boolean allowPrivateAddresses,
      int maxUrlLength, int maxRepeatedSegments, int maxQueryParameters) {
    public enum Mode { SAME_HOST, SAME_DOMAIN, ANY }
  }

  public record Normalize(List<String> stripParameters, boolean sortQuery) {}

  /**
   * {@code memoryBudget}, when present, sizes the filter instead of {@code falsePositiveRate}.
   * {@code recentMemory} holds recent URLs' fingerprints on the heap; {@code storeCache} is the exact
   * store's block cache, read only under {@code VERIFY}.
   */
  public record Seen(long expectedUrls, double falsePositiveRate, Optional<DataSize> memoryBudget,
      FilterLayout filterLayout, FalsePositivePolicy falsePositivePolicy, CapacityPolicy onCapacity,
      DataSize recentMemory, DataSize storeCache) {
    public enum FilterLayout { CACHE_LINE, PAGE }

    public enum FalsePositivePolicy { ACCEPT, VERIFY }

    public enum CapacityPolicy { WARN, GROW }
  }

  public record Robots(int cacheHosts, Duration cacheExpiry, boolean sitemaps) {}

  public record Parse(boolean obeyRelNofollow) {}

  /** The sizes as the frontier's options of the same names: {@code workingSetHosts}, {@code knownHostsCache}, ... */
  public record Frontier(SyncPolicy sync, int partitions, int workingSetHosts, int knownHosts, DataSize readAhead,
      DataSize blockCache, DataSize memtables) {
    public enum SyncPolicy { WAL, FSYNC }
  }

  public record Output(boolean warc, DataSize warcMaxFileSize, int warcCompressionLevel, boolean crawlLog) {}

  public record Stats(Duration interval) {}

  /** {@code listen} is empty when the status server is off. */
  public record Status(Optional<ListenAddress> listen) {}

  /**
   * The cluster a crawl is part of, off when {@code bootstrapServers} is empty.
   *
   * @param name the topic prefix and consumer group; not empty in a cluster
   * @param nodeId empty: the machine's host name
   */
  public record Cluster(List<String> bootstrapServers, String name, int partitions, Optional<String> nodeId) {
    public Cluster {
      bootstrapServers = List.copyOf(bootstrapServers);
    }

    public boolean enabled() {
      return !bootstrapServers.isEmpty();
    }
  }
}
