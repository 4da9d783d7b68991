package dev.crawler.robots;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import dev.crawler.fetch.FetchResult;
import dev.crawler.fetch.Fetcher;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import okhttp3.HttpUrl;

/**
 * The robots.txt rules of recently seen hosts. A miss fetches {@code /robots.txt} once, however
 * many workers ask for the host at the same time; an answer is kept for {@code expiry}, or for
 * {@code unavailableRetry} when robots.txt could not be had, then fetched again. Given a
 * {@link RobotsStore}, a host that left memory is read back from it rather than fetched again,
 * as long as its answer has not expired.
 *
 * <p>The cache is an access-ordered map of per-host futures under one lock: the lock is held
 * only to find or place a future, never while fetching, so a slow host delays only the callers
 * that want that host. The least recently used host goes when there are more than
 * {@code maxHosts}. Guava's cache was the other choice; it cannot give each entry its own
 * lifetime (an unavailable robots.txt must come back sooner) and does not refresh an expired
 * entry with one load.
 *
 * <p>Invariants: at most {@code maxHosts} entries; at most one unfinished fetch per host key
 * held (a host evicted while its fetch runs may be fetched again by a later caller).
 */
public final class RobotsCache {
  /** RFC 9309 2.2.1: a product token is letters, '-' and '_'. */
  private static final Pattern PRODUCT_TOKEN = Pattern.compile("[a-zA-Z_-]+");

  private final RobotsReader reader;
  private final RobotsStore store;
  private final AtomicLong storeHits = new AtomicLong();
  private final Duration expiry;
  private final Duration unavailableRetry;
  private final InstantSource clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, CompletableFuture<HostRobots>> byHost;

  /**
   * @param fetcher fetches robots.txt (any content type, its own 512 KiB cap)
   * @param agentName the crawler's product token, matched against User-agent lines
   * @param maxHosts hosts kept; the least recently used goes first
   * @param expiry how long a fetched robots.txt (or a 4xx) is trusted; RFC 9309 2.4 says at most 24 hours
   * @param unavailableRetry how long an unavailable robots.txt disallows the host before it is fetched again
   * @param clock for expiry; tests move it
   * @param onFetch told of every robots.txt fetch, each redirect hop too, for the WARC and crawl log
   */
  public RobotsCache(Fetcher fetcher, String agentName, int maxHosts, Duration expiry, Duration unavailableRetry,
      InstantSource clock, Consumer<FetchResult> onFetch) {
    this(fetcher, agentName, maxHosts, expiry, unavailableRetry, clock, onFetch, RobotsStore.NONE);
  }

  /**
   * As above, with a second level: a host missing from memory is looked up in {@code store}
   * before its robots.txt is fetched, and every lasting answer fetched is kept there.
   */
  public RobotsCache(Fetcher fetcher, String agentName, int maxHosts, Duration expiry, Duration unavailableRetry,
      InstantSource clock, Consumer<FetchResult> onFetch, RobotsStore store) {
    requireNonNull(fetcher, "fetcher");
    requireNonNull(agentName, "agentName");
    checkArgument(PRODUCT_TOKEN.matcher(agentName).matches(),
        "Agent name (%s) must be a robots.txt product token: letters, '-' and '_' only (RFC 9309 2.2.1)", agentName);
    checkArgument(maxHosts > 0, "Max hosts (%s) must be > 0", maxHosts);
    checkArgument(expiry.isPositive(), "Expiry (%s) must be positive", expiry);
    checkArgument(unavailableRetry.isPositive(), "Unavailable retry (%s) must be positive", unavailableRetry);
    this.reader = new RobotsReader(fetcher, agentName.toLowerCase(Locale.ROOT), requireNonNull(clock, "clock"),
        requireNonNull(onFetch, "onFetch"));
    this.store = requireNonNull(store, "store");
    this.expiry = expiry;
    this.unavailableRetry = unavailableRetry;
    this.clock = clock;
    this.byHost = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, CompletableFuture<HostRobots>> eldest) {
        return size() > maxHosts;
      }
    };
  }

  /**
   * The rules for {@code url}'s {@code scheme://host:port}, fetching {@code /robots.txt} on a
   * miss or after expiry. Blocks while another caller fetches the same host's.
   *
   * @param url an http(s) URL, as the normalizer passes on
   * @throws IllegalArgumentException if {@code url} is not an http(s) URL: the normalizer lets none through
   */
  public HostRobots forUrl(String url) {
    return forUrl(url, () -> {});
  }

  /**
   * As {@link #forUrl(String)}, running {@code beforeEachRequest} as each robots.txt request (each
   * redirect hop) made for this caller is about to go out: it may hold the request back until
   * the host's politeness allows it. It must not throw.
   */
  public HostRobots forUrl(String url, Runnable beforeEachRequest) {
    HttpUrl parsed = url == null ? null : HttpUrl.parse(url);
    checkArgument(parsed != null, "URL (%s) must be an http(s) URL", url);
    return forUrl(parsed, beforeEachRequest);
  }

  /** As {@link #forUrl(String, Runnable)}, for a URL the caller has parsed already. */
  public HostRobots forUrl(HttpUrl parsed, Runnable beforeEachRequest) {
    String key = originOf(parsed);
    CompletableFuture<HostRobots> robots;
    boolean fetchHere = false;
    lock.lock();
    try {
      robots = byHost.get(key);
      if (robots == null || isExpired(robots)) {
        robots = new CompletableFuture<>();
        byHost.put(key, robots);
        fetchHere = true;
      }
    } finally {
      lock.unlock();
    }
    if (fetchHere) {
      fetch(key, robotsUrl(parsed), robots, beforeEachRequest);
    }
    return robots.join();
  }

  /** robots.txt fetches made so far, each redirect hop counted. */
  public long fetches() {
    return reader.fetches();
  }

  /** Hosts held now. */
  int size() {
    lock.lock();
    try {
      return byHost.size();
    } finally {
      lock.unlock();
    }
  }

  /** Hosts whose rules came from the store instead of a fetch. */
  public long storeHits() {
    return storeHits.get();
  }

  private void fetch(String key, String robotsUrl, CompletableFuture<HostRobots> robots, Runnable beforeEachRequest) {
    try {
      HostRobots kept = fromStore(key);
      if (kept != null) {
        storeHits.incrementAndGet();
        robots.complete(kept);
        return;
      }
      RobotsReader.Answer answer = reader.read(robotsUrl, beforeEachRequest);
      if (answer.stored() != null) {
        store.put(key, answer.stored());
      }
      robots.complete(answer.robots());
    } catch (RuntimeException | Error e) {
      // A bug (the reader never throws for web input, but onFetch might): forget the entry so
      // the next caller tries again, and fail the callers waiting on this one.
      lock.lock();
      try {
        byHost.remove(key, robots);
      } finally {
        lock.unlock();
      }
      robots.completeExceptionally(e);
      throw e;
    }
  }

  /** The host's answer from the store, parsed again, if it has one that has not expired. */
  private HostRobots fromStore(String key) {
    StoredRobots stored = store.get(key).orElse(null);
    if (stored == null || !clock.instant().isBefore(stored.fetchedAt().plus(expiry))) {
      return null;
    }
    return reader.fromStored(stored);
  }

  private boolean isExpired(CompletableFuture<HostRobots> robots) {
    if (!robots.isDone() || robots.isCompletedExceptionally()) {
      return false;
    }
    HostRobots answer = robots.join();
    Duration lifetime = answer.availability() == HostRobots.Availability.UNAVAILABLE ? unavailableRetry : expiry;
    Instant expiresAt = answer.fetchedAt().plus(lifetime);
    return !clock.instant().isBefore(expiresAt);
  }

  /** {@code scheme://host[:port]/robots.txt}, the port left out when it is the scheme's default. */
  private static String robotsUrl(HttpUrl url) {
    return new HttpUrl.Builder().scheme(url.scheme()).host(url.host()).port(url.port())
        .encodedPath("/robots.txt").build().toString();
  }

  /** The origin a robots.txt belongs to (RFC 9309 2.3): {@code scheme://host:port}, an IPv6 host in brackets. */
  public static String originOf(HttpUrl url) {
    return url.scheme() + "://" + hostForUrl(url) + ":" + url.port();
  }

  private static String hostForUrl(HttpUrl url) {
    String host = url.host();
    return host.indexOf(':') >= 0 ? "[" + host + "]" : host;
  }
}
