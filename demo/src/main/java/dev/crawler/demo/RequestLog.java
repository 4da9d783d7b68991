package dev.crawler.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

/**
 * Every request a {@link DemoSite} served, for tests to check a crawl against: what was
 * requested how often, how many requests one host had in flight, and how long a host rested
 * between them. Times are the server's {@link System#nanoTime()} at the start of handling
 * (the request line and headers already read) and after the response was written. The
 * server's gap between two requests is never shorter than the client's, so a crawl that
 * waits its delay shows a {@link #minGap} of at least that delay. Thread-safe.
 */
public final class RequestLog {

  /**
   * One request.
   *
   * @param host the Host header's name, lower case, without the port ("" if absent)
   * @param target the raw path and query as requested ("/docs/api/page-3.html?view=print")
   * @param status the status sent, 0 if the handler failed before sending one
   */
  public record Request(String host, String target, long startNanos, long endNanos, int status) {
    public Duration duration() {
      return Duration.ofNanos(endNanos - startNanos);
    }
  }

  private static final Comparator<Request> BY_START = Comparator.comparingLong(Request::startNanos);

  /**
   * A request as it is being answered. It joins the log when its handling starts, before any
   * byte of the response is sent, so a client that has its response always finds its request
   * here; the end and status are filled in as they happen.
   */
  static final class Entry {
    final String host;
    final String target;
    final long startNanos;
    volatile int status;
    /** Set once, when the response is written; {@link #UNFINISHED} until then. */
    volatile long endNanos = UNFINISHED;

    private static final long UNFINISHED = Long.MIN_VALUE;

    Entry(String host, String target, long startNanos) {
      this.host = host;
      this.target = target;
      this.startNanos = startNanos;
    }

    void status(int code) {
      status = code;
    }

    /** Stamps the end, unless it was stamped already (just before the response's last byte). */
    void finish() {
      if (endNanos == UNFINISHED) {
        endNanos = System.nanoTime();
      }
    }

    /** This request, ending {@code now} if it is still being answered. */
    Request snapshot(long now) {
      long end = endNanos;
      return new Request(host, target, startNanos, end == UNFINISHED ? Math.max(now, startNanos) : end, status);
    }
  }

  private final int port;
  private final ConcurrentLinkedQueue<Entry> entries = new ConcurrentLinkedQueue<>();

  RequestLog(int port) {
    this.port = port;
  }

  /** Logs a request whose handling starts now. */
  Entry begin(String host, String target) {
    Entry entry = new Entry(host, target, System.nanoTime());
    entries.add(entry);
    return entry;
  }

  /** Logs a finished request (for tests of the arithmetic). */
  void record(Request request) {
    Entry entry = new Entry(request.host(), request.target(), request.startNanos());
    entry.status = request.status();
    entry.endNanos = request.endNanos();
    entries.add(entry);
  }

  /**
   * Every request so far, in order of start. A request still being answered shows the time
   * of this call as its end, and the status it is sending (0 before its headers).
   */
  public List<Request> all() {
    return snapshot(null);
  }

  private List<Request> snapshot(Predicate<String> hosts) {
    long now = System.nanoTime();
    List<Request> list = new ArrayList<>();
    for (Entry entry : entries) {
      if (hosts == null || hosts.test(entry.host)) {
        list.add(entry.snapshot(now));
      }
    }
    list.sort(BY_START);
    return list;
  }

  /** The requests to one host, in order of start. */
  public List<Request> forHost(String host) {
    return snapshot(host::equals);
  }

  public int size() {
    return entries.size();
  }

  /** Forgets every request so far (a benchmark's warm-up, or a test's earlier requests). */
  public void clear() {
    entries.clear();
  }

  /** "http://host:port/target" to the number of times it was requested, in order of first request. */
  public Map<String, Long> countsByUrl() {
    Map<String, Long> counts = new LinkedHashMap<>();
    for (Request request : all()) {
      counts.merge("http://" + request.host() + ":" + port + request.target(), 1L, Long::sum);
    }
    return counts;
  }

  /** The most requests to one host in flight at once; 0 if it had none. */
  public int maxConcurrent(String host) {
    return maxConcurrent(host::equals);
  }

  /** The most requests in flight at once to the hosts named (a domain's, say); 0 if they had none. */
  public int maxConcurrent(Predicate<String> hosts) {
    List<Request> list = snapshot(hosts);
    // Sweep over starts (+1) and ends (-1); at equal times the end goes first, since a
    // request that starts as another ends does not overlap it.
    // nanoTime has an arbitrary origin: times count from the first start, so doubling cannot overflow.
    long[] events = new long[list.size() * 2];
    long origin = list.isEmpty() ? 0 : list.get(0).startNanos();
    int i = 0;
    for (Request request : list) {
      events[i++] = (request.startNanos() - origin) * 2 + 1;
      events[i++] = (request.endNanos() - origin) * 2;
    }
    Arrays.sort(events);
    int inFlight = 0;
    int max = 0;
    for (long event : events) {
      inFlight += (event & 1) == 1 ? 1 : -1;
      max = Math.max(max, inFlight);
    }
    return max;
  }

  /**
   * The shortest time between the starts of two requests to the hosts named, taken in order of
   * start: what a queue's delay bounds whatever its connections.
   *
   * @param name what the hosts are, for the error
   * @throws IllegalStateException if the hosts had fewer than two requests
   */
  public Duration minStartGap(Predicate<String> hosts, String name) {
    List<Request> list = snapshot(hosts);
    if (list.size() < 2) {
      throw new IllegalStateException(name + " had " + list.size() + " request(s); a gap needs two");
    }
    long min = Long.MAX_VALUE;
    for (int i = 1; i < list.size(); i++) {
      min = Math.min(min, list.get(i).startNanos() - list.get(i - 1).startNanos());
    }
    return Duration.ofNanos(min);
  }

  /**
   * The shortest rest of one host: over its requests in order of start, the time from the
   * latest end before a request to that request's start. Zero if two requests overlapped.
   *
   * @throws IllegalStateException if the host had fewer than two requests (there is no gap)
   */
  public Duration minGap(String host) {
    return minGap(host::equals, host);
  }

  /**
   * The shortest rest of a group of hosts (a domain's, say), over all their requests in order
   * of start, as {@link #minGap(String)} measures one host's.
   *
   * @param name what the hosts are, for the error
   * @throws IllegalStateException if the hosts had fewer than two requests
   */
  public Duration minGap(Predicate<String> hosts, String name) {
    List<Request> list = snapshot(hosts);
    if (list.size() < 2) {
      throw new IllegalStateException(name + " had " + list.size() + " request(s); a gap needs two");
    }
    long latestEnd = list.get(0).endNanos();
    long min = Long.MAX_VALUE;
    for (Request request : list.subList(1, list.size())) {
      min = Math.min(min, Math.max(0, request.startNanos() - latestEnd));
      latestEnd = Math.max(latestEnd, request.endNanos());
    }
    return Duration.ofNanos(min);
  }
}
