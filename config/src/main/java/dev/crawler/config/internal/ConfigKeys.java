package dev.crawler.config.internal;

import static dev.crawler.config.internal.ValueTypes.bool;
import static dev.crawler.config.internal.ValueTypes.choice;
import static dev.crawler.config.internal.ValueTypes.count;
import static dev.crawler.config.internal.ValueTypes.duration;
import static dev.crawler.config.internal.ValueTypes.durationLimit;
import static dev.crawler.config.internal.ValueTypes.integer;
import static dev.crawler.config.internal.ValueTypes.limit;
import static dev.crawler.config.internal.ValueTypes.list;
import static dev.crawler.config.internal.ValueTypes.listen;
import static dev.crawler.config.internal.ValueTypes.optionalSize;
import static dev.crawler.config.internal.ValueTypes.path;
import static dev.crawler.config.internal.ValueTypes.rate;
import static dev.crawler.config.internal.ValueTypes.size;
import static dev.crawler.config.internal.ValueTypes.text;

import dev.crawler.config.CrawlConfig;
import dev.crawler.config.DataSize;
import dev.crawler.config.ListenAddress;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * Every configuration key, its default and its one-line documentation, in the order
 * the defaults file prints them. This is the only place a default is written: code
 * reads values through {@link dev.crawler.config.CrawlConfig}, never as literals.
 */
public final class ConfigKeys {
  private ConfigKeys() {}

  // The checks' patterns come first: the keys below call the checks while they are built.
  // RFC 9309 2.2.1: a product token has letters, "_" and "-" only (crawler-commons refuses digits).
  /**
   * A robots.txt product token (RFC 9309 2.2.1: letters, '-' and '_'), optionally followed by
   * '/' and a version as User-Agent headers carry one (RFC 9110 10.1.5: a token, no spaces).
   */
  private static final Pattern AGENT_NAME = Pattern.compile("[A-Za-z_-]*(/[A-Za-z0-9._+~-]+)?");
  private static final Pattern SERVER = Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9][A-Za-z0-9.-]*):([0-9]{1,5})");
  private static final Pattern KAFKA_NAME = Pattern.compile("[A-Za-z0-9._-]+");
  private static final Pattern MEDIA_TYPE = Pattern.compile("(\\*/\\*|[a-z0-9][a-z0-9!#$&^_.+-]*/(\\*|[a-z0-9][a-z0-9!#$&^_.+-]*))");
  private static final Pattern PARAMETER = Pattern.compile("[A-Za-z0-9_.*\\[\\]-]+");

  /** One-line documentation of each section, printed above it in the defaults file. */
  public static final Map<String, String> SECTIONS = sections(
      "crawl", "What to crawl, who is crawling, and when to stop.",
      "crawl.user-agent", "How the crawler names itself to servers and in robots.txt matching.",
      "crawl.limits", "When the crawl stops; 'unlimited' means no limit.",
      "politeness", "How gently each host is treated.",
      "politeness.error-backoff", "What repeated errors from a host do to its schedule.",
      "fetch", "Downloading pages.",
      "fetch.timeouts", "How long a fetch may take.",
      "scope", "Which discovered URLs are crawled.",
      "normalize", "How URLs are spelled before they are compared.",
      "seen", "The URL-seen filter: a Bloom filter, optionally confirmed by an exact store.",
      "robots", "robots.txt and sitemaps.",
      "parse", "Reading links out of pages.",
      "frontier", "The on-disk queue of URLs to fetch.",
      "output", "What the crawl writes besides its state.",
      "stats", "The periodic progress line in the log.",
      "status", "The crawl's own web server: a status page at / and Prometheus metrics at /metrics.",
      "cluster", "One crawl across several machines, its URLs carried on Apache Kafka; off while bootstrap-servers is empty.");

  // ------------------------------------------------------------------ crawl
  public static final ConfigKey<Path> CRAWL_SEEDS = ConfigKey.of("crawl.seeds", path(), "seeds.txt",
      "File of seed URLs, one a line; '#' starts a comment. The command line's --seeds replaces it.");
  public static final ConfigKey<Path> CRAWL_DATA_DIR = ConfigKey.of("crawl.data-dir", path(), "crawl-data",
      "Folder for the crawl's state (frontier, filter, exact store), WARC files and logs.");
  public static final ConfigKey<String> CRAWL_USER_AGENT_NAME = ConfigKey.of("crawl.user-agent.name",
      text("empty, or letters, '-' and '_' (a robots.txt product token), optionally then '/' and a version",
          ConfigKeys::agentNameProblem), "",
      "Your crawler's name, such as 'examplebot' or 'examplebot/1.2'. Required for a crawl. Sent in User-Agent as "
          + "'name/version (+contact-url)', the crawler's own version when none is given; robots.txt groups are "
          + "matched on the name without its version.");
  public static final ConfigKey<String> CRAWL_USER_AGENT_CONTACT = ConfigKey.of("crawl.user-agent.contact-url",
      text("empty, or an http(s) or mailto URL", ConfigKeys::contactProblem), "",
      "Where a site owner can reach you, sent in User-Agent as '+URL'.");
  public static final ConfigKey<OptionalLong> CRAWL_MAX_PAGES = ConfigKey.of("crawl.limits.max-pages", limit(1),
      "unlimited", "Pages fetched in all before the crawl stops.");
  public static final ConfigKey<OptionalLong> CRAWL_MAX_DEPTH = ConfigKey.of("crawl.limits.max-depth", limit(0),
      "20", "Links followed from a seed; seeds are depth 0.");
  public static final ConfigKey<OptionalLong> CRAWL_MAX_PAGES_PER_HOST = ConfigKey.of("crawl.limits.max-pages-per-host",
      limit(1), "unlimited", "Pages fetched from any one host.");
  public static final ConfigKey<Optional<Duration>> CRAWL_MAX_DURATION = ConfigKey.of("crawl.limits.max-duration",
      durationLimit(), "unlimited", "Wall-clock time after which the crawl stops cleanly (resumable).");

  // ------------------------------------------------------------------ politeness
  public static final ConfigKey<Duration> POLITENESS_DEFAULT_DELAY = ConfigKey.of("politeness.default-delay",
      duration(Duration.ZERO), "1s", "Least time between the starts of two requests to one queue (see queue-by), "
          + "whatever connections-per-host is; with one connection, also between the end of one and the start of the "
          + "next. A robots.txt Crawl-delay above it (up to max-crawl-delay) replaces it.");
  public static final ConfigKey<Duration> POLITENESS_MAX_CRAWL_DELAY = ConfigKey.of("politeness.max-crawl-delay",
      duration(Duration.ZERO), "30s", "Longest robots.txt Crawl-delay honoured; longer ones are capped to this.");
  public static final ConfigKey<Integer> POLITENESS_CONNECTIONS_PER_HOST = ConfigKey.of(
      "politeness.connections-per-host", integer(1, 64), "1",
      "Fetches in flight at once to one queue (see queue-by); a queue whose robots.txt gives a Crawl-delay gets "
          + "one, and its requests that Crawl-delay apart from the end of one to the start of the next.");
  public static final ConfigKey<CrawlConfig.Politeness.QueueBy> POLITENESS_QUEUE_BY = ConfigKey.of(
      "politeness.queue-by", choice(CrawlConfig.Politeness.QueueBy.class), "host",
      "What shares one queue, its delay and its connections: host (and port), domain (every host of a registered "
          + "domain, such as www.example.com and docs.example.com; a robots.txt Crawl-delay of one applies to all), "
          + "or ip (every host whose first URL found it at one address: a host's queue is decided once and kept; "
          + "one that did not resolve queues by host). Fixed for the life of a crawl.");
  public static final ConfigKey<Duration> POLITENESS_MAX_RETRY_AFTER = ConfigKey.of("politeness.max-retry-after",
      duration(Duration.ZERO), "10m", "Longest Retry-After (429, 503) honoured; longer ones are capped to this.");
  public static final ConfigKey<Duration> POLITENESS_BACKOFF_INITIAL = ConfigKey.of(
      "politeness.error-backoff.initial", duration(Duration.ZERO), "10s",
      "Extra wait after a host's first failed fetch; it doubles (with jitter) on each further failure.");
  public static final ConfigKey<Duration> POLITENESS_BACKOFF_MAX = ConfigKey.of("politeness.error-backoff.max",
      duration(Duration.ZERO), "30m", "Longest wait the doubling reaches.");
  public static final ConfigKey<Integer> POLITENESS_SUSPEND_AFTER = ConfigKey.of(
      "politeness.error-backoff.suspend-after", integer(1, 1_000_000), "10",
      "Consecutive failures after which a host is suspended.");
  public static final ConfigKey<Duration> POLITENESS_SUSPEND_FOR = ConfigKey.of("politeness.error-backoff.suspend-for",
      duration(Duration.ofSeconds(1)), "6h", "How long a suspended host waits before it is tried again.");

  // ------------------------------------------------------------------ fetch
  public static final ConfigKey<Integer> FETCH_WORKERS = ConfigKey.of("fetch.workers", integer(1, 100_000), "32",
      "Fetches in flight at once across all hosts (virtual threads).");
  public static final ConfigKey<Integer> FETCH_MAX_CONNECTIONS = ConfigKey.of("fetch.max-connections",
      integer(1, 100_000), "256", "Idle connections kept open for reuse, in all; those in use (at most fetch.workers) come on top.");
  public static final ConfigKey<Duration> FETCH_CONNECT_TIMEOUT = ConfigKey.of("fetch.timeouts.connect",
      duration(Duration.ofMillis(1)), "10s", "Longest wait for a TCP and TLS connection.");
  public static final ConfigKey<Duration> FETCH_READ_TIMEOUT = ConfigKey.of("fetch.timeouts.read",
      duration(Duration.ofMillis(1)), "30s", "Longest silence while reading a response.");
  public static final ConfigKey<Duration> FETCH_TOTAL_TIMEOUT = ConfigKey.of("fetch.timeouts.total",
      duration(Duration.ofMillis(1)), "2m", "Longest time for one whole fetch, body included.");
  public static final ConfigKey<DataSize> FETCH_MAX_CONTENT = ConfigKey.of("fetch.max-content-bytes",
      size(DataSize.ofBytes(1), DataSize.ofBytes(1L << 30)), "10MB",
      "Body bytes kept, after decompression; the rest is cut and the page marked truncated. A body is held in memory whole.");
  public static final ConfigKey<Integer> FETCH_MAX_REDIRECTS = ConfigKey.of("fetch.max-redirects", integer(0, 20), "5",
      "Redirect hops followed from one URL.");
  public static final ConfigKey<List<String>> FETCH_CONTENT_TYPES = ConfigKey.ofList("fetch.accepted-content-types",
      list("media types such as text/html or text/*", ConfigKeys::mediaTypeProblem),
      List.of("text/html", "application/xhtml+xml", "text/plain", "application/xml", "text/xml"),
      "Media types whose bodies are kept; others are recorded as skipped. HTML ones are parsed for links.");

  // ------------------------------------------------------------------ scope
  public static final ConfigKey<CrawlConfig.Scope.Mode> SCOPE_MODE = ConfigKey.of("scope.mode",
      choice(CrawlConfig.Scope.Mode.class), "same-domain",
      "same-host: only the seeds' hosts; same-domain: their registered domains; any: the whole web.");
  public static final ConfigKey<List<String>> SCOPE_INCLUDE = ConfigKey.ofList("scope.include",
      list("regular expressions", ValueTypes::regexProblem), List.of(),
      "If not empty, a URL must match one of these regular expressions (Java syntax, searched anywhere in the URL).");
  public static final ConfigKey<List<String>> SCOPE_EXCLUDE = ConfigKey.ofList("scope.exclude",
      list("regular expressions", ValueTypes::regexProblem), List.of(),
      "A URL that matches any of these regular expressions is out of scope.");
  public static final ConfigKey<Boolean> SCOPE_ALLOW_PRIVATE = ConfigKey.of("scope.allow-private-addresses", bool(),
      "false", "Allow hosts that resolve to private, loopback or link-local addresses.");
  public static final ConfigKey<Integer> SCOPE_MAX_URL_LENGTH = ConfigKey.of("scope.max-url-length",
      integer(16, 1_000_000), "2048", "Longer URLs are refused (a trap guard).");
  public static final ConfigKey<Integer> SCOPE_MAX_REPEATED_SEGMENTS = ConfigKey.of("scope.max-repeated-segments",
      integer(1, 1_000), "3", "Times one path segment may occur in a URL's path (a trap guard: /a/b/a/b/a/b).");
  public static final ConfigKey<Integer> SCOPE_MAX_QUERY_PARAMETERS = ConfigKey.of("scope.max-query-parameters",
      integer(0, 10_000), "20", "Query parameters a URL may have (a trap guard).");

  // ------------------------------------------------------------------ normalize
  public static final ConfigKey<List<String>> NORMALIZE_STRIP_PARAMETERS = ConfigKey.ofList(
      "normalize.strip-parameters", list("parameter names, '*' matching any run of characters", ConfigKeys::parameterProblem),
      List.of("utm_*", "gclid", "fbclid", "jsessionid", "phpsessid", "sid"),
      "Query parameters (and ;jsessionid-style path parameters) removed from every URL, case-insensitively.");
  public static final ConfigKey<Boolean> NORMALIZE_SORT_QUERY = ConfigKey.of("normalize.sort-query", bool(), "false",
      "Sort query parameters by name, so ?b=1&a=2 and ?a=2&b=1 are one URL.");

  // ------------------------------------------------------------------ seen
  public static final ConfigKey<Long> SEEN_EXPECTED_URLS = ConfigKey.of("seen.expected-urls",
      count(1_000, 1L << 40), "100_000_000", "URLs the filter is sized for; past it the on-capacity policy applies.");
  public static final ConfigKey<Double> SEEN_FALSE_POSITIVE_RATE = ConfigKey.of("seen.false-positive-rate", rate(),
      "1%", "Target rate of new URLs the filter wrongly calls seen, at expected-urls.");
  public static final ConfigKey<Optional<DataSize>> SEEN_MEMORY_BUDGET = ConfigKey.of("seen.memory-budget",
      optionalSize(DataSize.ofBytes(1024)), "none",
      "Size the filter from memory instead of false-positive-rate: the rate follows from it. Set one of the two.");
  // At 1% cache-line needs 10.0 bits a URL and page 9.7 (a standard filter 9.6), and cache-line answers a few
  // times faster (one memory miss a check, not one a bit); the sizing keeps either at the target rate.
  public static final ConfigKey<CrawlConfig.Seen.FilterLayout> SEEN_FILTER_LAYOUT = ConfigKey.of("seen.filter-layout",
      choice(CrawlConfig.Seen.FilterLayout.class), "cache-line",
      "cache-line: a URL's bits in one 64-byte block, one memory miss a check, about 3% more memory; "
          + "page: in one 4KB block, a miss a bit (about a standard filter's speed), the least memory for the rate.");
  public static final ConfigKey<CrawlConfig.Seen.FalsePositivePolicy> SEEN_POLICY = ConfigKey.of(
      "seen.false-positive-policy", choice(CrawlConfig.Seen.FalsePositivePolicy.class), "verify",
      "accept: trust the filter, a false positive skips a page; verify: confirm each 'maybe' in an exact store on disk.");
  public static final ConfigKey<CrawlConfig.Seen.CapacityPolicy> SEEN_ON_CAPACITY = ConfigKey.of("seen.on-capacity",
      choice(CrawlConfig.Seen.CapacityPolicy.class), "grow",
      "warn: keep one filter and warn as its rate rises; grow: add a larger filter so the rate stays at the target.");
  // At most 2^30 fingerprints of 8 bytes, the most dedup's RecentFingerprints takes. The crawler rounds
  // the size down to a power of two (the service would round its count up), so the key is a ceiling.
  public static final ConfigKey<DataSize> SEEN_RECENT_MEMORY = ConfigKey.of("seen.recent-memory",
      size(DataSize.ofBytes(64L << 10), DataSize.ofBytes(8L << 30)), "8MB",
      "Heap for the fingerprints of recent URLs, 8 bytes each, rounded down to a power of two (100MB uses 64MB): "
          + "they answer repeated links with no filter or store read.");
  // The bounds are guards, not RocksDB's needs: 1MB is a few hundred of its 4KB blocks, and 1TB is past
  // any one machine's memory, so a slipped unit fails at start rather than when the cache has grown.
  public static final ConfigKey<DataSize> SEEN_STORE_CACHE = ConfigKey.of("seen.store-cache",
      size(DataSize.ofMegabytes(1), DataSize.ofBytes(1L << 40)), "64MB",
      "RocksDB block cache of the exact store (native memory, outside the heap); only verify reads the store while crawling.");

  // ------------------------------------------------------------------ robots
  public static final ConfigKey<Integer> ROBOTS_CACHE_HOSTS = ConfigKey.of("robots.cache-hosts",
      integer(1, 100_000_000), "100_000", "robots.txt rules kept in memory, by host; the others are read back from the crawl's robots/ folder.");
  public static final ConfigKey<Duration> ROBOTS_CACHE_EXPIRY = ConfigKey.of("robots.cache-expiry",
      duration(Duration.ofSeconds(1)), "1d", "How long fetched robots.txt rules are trusted.");
  public static final ConfigKey<Boolean> ROBOTS_SITEMAPS = ConfigKey.of("robots.sitemaps", bool(), "true",
      "Read the sitemaps that robots.txt names and crawl their URLs.");

  // ------------------------------------------------------------------ parse
  public static final ConfigKey<Boolean> PARSE_OBEY_REL_NOFOLLOW = ConfigKey.of("parse.obey-rel-nofollow", bool(),
      "true", "Skip links marked rel=nofollow (meta robots nofollow is always obeyed).");

  // ------------------------------------------------------------------ frontier
  public static final ConfigKey<CrawlConfig.Frontier.SyncPolicy> FRONTIER_SYNC = ConfigKey.of("frontier.sync",
      choice(CrawlConfig.Frontier.SyncPolicy.class), "wal",
      "wal: accepted URLs survive a killed process; fsync: they survive a power cut too, at a cost in speed.");
  public static final ConfigKey<Integer> FRONTIER_PARTITIONS = ConfigKey.of("frontier.partitions",
      integer(1, 65_536), "1", "Queue partitions (hash of the queue key mod this): a cluster splits the crawl by them; "
          + "up to 16 groups, each with its own lock and database.");
  // The heap figures are measured with FrontierBench (--known-hosts, --working-set); the bounds are guards
  // against a slipped digit, far past what a machine's heap holds at those figures.
  public static final ConfigKey<Integer> FRONTIER_WORKING_SET_HOSTS = ConfigKey.of("frontier.working-set-hosts",
      integer(1, 100_000_000), "20_000",
      "Hosts held in the heap ready to be served (about 1KB each with their next URLs); the rest wait on disk "
          + "in time order and are read in as the ready ones run low.");
  public static final ConfigKey<Integer> FRONTIER_KNOWN_HOSTS = ConfigKey.of("frontier.known-hosts",
      integer(0, 100_000_000), "100_000",
      "Queued hosts remembered in the heap (about 500 bytes each), so a link to one, or its next turn, "
          + "needs no disk read of its state.");
  public static final ConfigKey<DataSize> FRONTIER_READ_AHEAD = ConfigKey.of("frontier.read-ahead",
      size(DataSize.ofBytes(0), DataSize.ofBytes(1L << 40)), "64MB",
      "Heap for URLs read ahead and kept for known hosts between their turns, so a turn needs no disk read.");
  public static final ConfigKey<DataSize> FRONTIER_BLOCK_CACHE = ConfigKey.of("frontier.block-cache",
      size(DataSize.ofMegabytes(1), DataSize.ofBytes(1L << 40)), "128MB",
      "RocksDB block cache of the frontier (native memory, outside the heap); the memtables count against it.");
  public static final ConfigKey<DataSize> FRONTIER_MEMTABLES = ConfigKey.of("frontier.memtables",
      size(DataSize.ofMegabytes(1), DataSize.ofBytes(1L << 40)), "64MB",
      "Cap on the frontier's RocksDB write buffers, all together (native memory, counted in the block cache); "
          + "past it a flush is forced.");

  // ------------------------------------------------------------------ output
  public static final ConfigKey<Boolean> OUTPUT_WARC = ConfigKey.of("output.warc", bool(), "true",
      "Write fetched requests and responses to gzipped WARC files.");
  public static final ConfigKey<DataSize> OUTPUT_WARC_MAX_FILE = ConfigKey.of("output.warc-max-file-size",
      size(DataSize.ofMegabytes(1)), "1GB", "A WARC file is closed and a new one started past this size.");
  public static final ConfigKey<Integer> OUTPUT_WARC_COMPRESSION = ConfigKey.of("output.warc-compression-level",
      integer(1, 9), "3", "Gzip level of the WARC records: 3 takes 40% less CPU than 6 for files about 6% larger; 9 is smallest.");
  public static final ConfigKey<Boolean> OUTPUT_CRAWL_LOG = ConfigKey.of("output.crawl-log", bool(), "true",
      "Write one line per fetch to crawl.log.");

  // ------------------------------------------------------------------ stats
  public static final ConfigKey<Duration> STATS_INTERVAL = ConfigKey.of("stats.interval",
      duration(Duration.ofMillis(100)), "10s", "Time between two stats lines in the log.");

  // ------------------------------------------------------------------ status
  public static final ConfigKey<Optional<ListenAddress>> STATUS_LISTEN = ConfigKey.of("status.listen", listen(),
      "127.0.0.1:9477", "Address of the status page and /metrics; off: no server. A port in use stops the crawl at start.");

  // ------------------------------------------------------------------ cluster
  public static final ConfigKey<List<String>> CLUSTER_BOOTSTRAP_SERVERS = ConfigKey.ofList("cluster.bootstrap-servers",
      list("host:port of Kafka brokers, such as kafka1:9092 or [::1]:9092", ConfigKeys::serverProblem), List.of(),
      "Kafka brokers to start from (a few are enough; the client finds the rest). Empty: a crawl on this machine alone.");
  public static final ConfigKey<String> CLUSTER_NAME = ConfigKey.of("cluster.name",
      text("empty, or up to 200 letters, digits, '.', '_' and '-'", ConfigKeys::clusterNameProblem), "",
      "The crawl's name in Kafka: its topics are NAME.urls, NAME.done, NAME.handovers and NAME.seeds, its consumer group NAME. "
          + "Required for a cluster.");
  public static final ConfigKey<Integer> CLUSTER_PARTITIONS = ConfigKey.of("cluster.partitions", integer(1, 65_536),
      "64", "Partitions of the crawl, fixed when it is created: each belongs to one node at a time, which fetches "
          + "its hosts. More partitions than nodes lets work move in small pieces when nodes join or leave.");
  public static final ConfigKey<String> CLUSTER_NODE_ID = ConfigKey.of("cluster.node-id",
      text("empty, or up to 100 letters, digits, '.', '_' and '-'", ConfigKeys::nodeIdProblem), "",
      "This node's name in the cluster's status and logs; empty: the machine's host name.");

  /** Every key, in declaration order. */
  public static final List<ConfigKey<?>> ALL = collectKeys();

  // ------------------------------------------------------------------ checks


  static String agentNameProblem(String name) {
    if (AGENT_NAME.matcher(name).matches()) {
      return name.startsWith("/") ? "has a version but no name before the '/'" : null;
    }
    return name.contains("/") ? "is not a name of letters, '-' and '_', then '/' and a version of letters, digits"
        + " and '.', '-', '_', '+', '~'" : "has characters other than letters, '-' and '_'";
  }

  static String contactProblem(String url) {
    if (url.isEmpty()) {
      return null;
    }
    if (!url.chars().allMatch(c -> c > ' ' && c < 0x7f)) {
      // It goes into the User-Agent header, which is ASCII (RFC 9110 5.5): OkHttp refuses the rest at start.
      return "has characters a User-Agent header cannot carry: use the punycode host (xn--...) and %-escapes";
    }
    try {
      String scheme = new URI(url).getScheme();
      if (scheme != null && List.of("http", "https", "mailto").contains(scheme.toLowerCase(java.util.Locale.ROOT))) {
        return null;
      }
    } catch (java.net.URISyntaxException e) {
      return "is not a URL: " + e.getReason();
    }
    return "is not an http(s) or mailto URL";
  }

  static String serverProblem(String server) {
    var m = SERVER.matcher(server);
    if (!m.matches()) {
      return "is not host:port";
    }
    int port = Integer.parseInt(m.group(2));
    return port >= 1 && port <= 65_535 ? null : "has port " + port + ", outside 1 to 65535";
  }

  static String clusterNameProblem(String name) {
    return kafkaNameProblem(name, 200);
  }

  static String nodeIdProblem(String id) {
    return kafkaNameProblem(id, 100);
  }

  /** Kafka's rule for topic names (and so for group ids made from them): these characters, not "." or "..". */
  private static String kafkaNameProblem(String name, int maxLength) {
    if (name.isEmpty()) {
      return null;
    }
    if (name.length() > maxLength) {
      return "is " + name.length() + " characters long, above " + maxLength;
    }
    if (!KAFKA_NAME.matcher(name).matches()) {
      return "has characters other than letters, digits, '.', '_' and '-'";
    }
    return name.equals(".") || name.equals("..") ? "is not a name Kafka allows" : null;
  }

  static String mediaTypeProblem(String type) {
    return MEDIA_TYPE.matcher(type).matches() ? null : "is not a lower-case media type like text/html or text/*";
  }

  static String parameterProblem(String name) {
    return PARAMETER.matcher(name).matches() ? null : "is not a parameter name (letters, digits, '_', '-', '.', '*')";
  }

  private static Map<String, String> sections(String... pairs) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return java.util.Collections.unmodifiableMap(map);
  }

  private static List<ConfigKey<?>> collectKeys() {
    List<ConfigKey<?>> keys = new ArrayList<>();
    for (Field field : ConfigKeys.class.getDeclaredFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == ConfigKey.class) {
        try {
          keys.add((ConfigKey<?>) field.get(null));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return List.copyOf(keys);
  }
}
