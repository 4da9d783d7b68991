package dev.crawler.demo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.crawler.demo.LinkGraph.Route;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import okhttp3.Dns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A generated web site of several virtual hosts, served on 127.0.0.1 only, for the demo
 * command, the end-to-end crawl tests and the benchmark. One JDK HTTP server on a free port
 * serves every host, chosen by the Host header; {@link #dns()} resolves the hosts' names to
 * 127.0.0.1, so URLs look real (http://www.example.com:PORT/) and nothing leaves the machine.
 * Pages are generated on each request from the spec (nothing big is kept), every request is
 * recorded in {@link #requests()}, and {@link #expectedFetches} says what a correct crawl
 * requests.
 *
 * <pre>{@code
 * try (DemoSite site = DemoSite.start(DemoSiteSpec.demo())) {
 *   crawl(site.seeds(), site.dns());
 *   assertThat(site.requests().countsByUrl().keySet())
 *       .isEqualTo(site.expectedFetches(host -> host.endsWith(".example.com")));
 * }
 * }</pre>
 */
public final class DemoSite implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DemoSite.class);

  private static final String HTML = "text/html; charset=utf-8";
  /** Connections the kernel queues before the server accepts them: a benchmark opens many at once. */
  private static final int BACKLOG = 1024;
  private static final String NODELAY = "sun.net.httpserver.nodelay";

  private final LinkGraph graph;
  private final PageRenderer renderer;
  private final HttpServer server;
  private final ExecutorService executor;
  private final RequestLog requests;
  private final InetAddress loopback;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Hosts that answer after a pause, as a slow real server does; none by default. */
  private final Map<String, Duration> latencies = new ConcurrentHashMap<>();

  private DemoSite(DemoSiteSpec spec, HttpServer server, ExecutorService executor) throws UnknownHostException {
    this.server = server;
    this.executor = executor;
    this.graph = new LinkGraph(spec, server.getAddress().getPort());
    this.renderer = new PageRenderer(graph);
    this.requests = new RequestLog(graph.port());
    this.loopback = InetAddress.getByAddress("localhost", new byte[] {127, 0, 0, 1});
  }

  /** Binds 127.0.0.1 on a free port and starts serving every host of the spec. */
  public static DemoSite start(DemoSiteSpec spec) throws IOException {
    InetAddress loopback = InetAddress.getByAddress("localhost", new byte[] {127, 0, 0, 1});
    // Without TCP_NODELAY the JDK server's separate writes of headers and body meet the
    // client's delayed ACK, and every keep-alive response waits ~40 ms. The JDK reads this
    // property once, when its first server starts in the JVM.
    if (System.getProperty(NODELAY) == null) {
      System.setProperty(NODELAY, "true");
    }
    HttpServer server = HttpServer.create(new InetSocketAddress(loopback, 0), BACKLOG);
    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    server.setExecutor(executor);
    DemoSite site = new DemoSite(spec, server, executor);
    server.createContext("/", site::handle);
    server.start();
    log.info("Demo site serving {} hosts, {} pages, on 127.0.0.1:{}", spec.hosts().size(), spec.totalPages(),
        site.port());
    return site;
  }

  public int port() {
    return graph.port();
  }

  public DemoSiteSpec spec() {
    return graph.spec();
  }

  /**
   * Resolves every host name of the site to 127.0.0.1. Any other name fails as unknown, so a
   * crawl given this resolver cannot reach past loopback whatever it finds in a page.
   */
  public Dns dns() {
    return hostname -> {
      if (graph.hostIndex(hostname.toLowerCase(Locale.ROOT)) >= 0) {
        return List.of(InetAddress.getByAddress(hostname, loopback.getAddress()));
      }
      throw new UnknownHostException(hostname + " is not a host of the demo site on port " + port());
    };
  }

  /** The home page of each seed host ("http://www.example.com:PORT/"), in the spec's order. */
  public List<String> seeds() {
    List<String> seeds = new ArrayList<>();
    for (int h = 0; h < graph.hostCount(); h++) {
      if (graph.host(h).seed()) {
        seeds.add(graph.url(h, "/"));
      }
    }
    return seeds;
  }

  /** "http://name:PORT" of a host of the site. */
  public String origin(String hostName) {
    int h = graph.hostIndex(hostName);
    if (h < 0) {
      throw new IllegalArgumentException(hostName + " is not a host of the demo site");
    }
    return graph.origin(h);
  }

  public RequestLog requests() {
    return requests;
  }

  /**
   * Makes one host answer every request {@code latency} after it arrives, as a distant or busy
   * server does, so a crawl with several connections to it has several requests in flight.
   */
  public void answerAfter(String hostName, Duration latency) {
    if (graph.hostIndex(hostName) < 0) {
      throw new IllegalArgumentException(hostName + " is not a host of the demo site");
    }
    if (latency.isNegative()) {
      throw new IllegalArgumentException("Latency of " + hostName + " (" + latency + ") must not be negative");
    }
    latencies.put(hostName, latency);
  }

  /**
   * The absolute URLs ("http://host:PORT/path?query") that a correct crawl of this site
   * requests, computed from the site's own link graph without any HTTP, spelled as the
   * crawler's normalizer spells them (fragment and utm_* parameters dropped, other query
   * parameters kept in place):
   * <ul>
   *   <li>a breadth-first walk from {@link #seeds()} through links and redirects (the /go/n
   *       URL and its target both count), on hosts where {@code hostInScope} holds;
   *   <li>never a robots-disallowed URL, never mailto: or javascript:;
   *   <li>404 and 500 URLs count (they are requested) but lead nowhere;
   *   <li>each host the walk reaches adds its /robots.txt, and, if it has a sitemap, its
   *       /sitemap.xml and every page listed there (orphans too).
   * </ul>
   * It assumes a crawl with no depth or page budget short of the site and that follows
   * sitemaps named in robots.txt.
   *
   * @param hostInScope whether the crawl's scope admits a host name ("www.example.org")
   */
  public Set<String> expectedFetches(Predicate<String> hostInScope) {
    return graph.expectedFetches(hostInScope);
  }

  /** Stops serving at once; requests in flight are cut. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      server.stop(0);
      executor.close();
      log.info("Demo site on 127.0.0.1:{} stopped after {} requests", port(), requests.size());
    }
  }

  // ---------------------------------------------------------------- serving

  /** The response to one request; every route of {@link LinkGraph#route} maps to one. */
  private record Response(int status, String contentType, byte[] body, String location) {
    static Response of(int status, String contentType, byte[] body) {
      return new Response(status, contentType, body, null);
    }
  }

  private void handle(HttpExchange exchange) {
    String host = hostName(exchange.getRequestHeaders().getFirst("Host"));
    URI uri = exchange.getRequestURI();
    String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    RequestLog.Entry logged = requests.begin(host, target);
    try (exchange) {
      Duration latency = latencies.get(host);
      if (latency != null) {
        Thread.sleep(latency);
      }
      String method = exchange.getRequestMethod();
      Response response = method.equals("GET") || method.equals("HEAD")
          ? respond(host, target)
          : Response.of(405, HTML, PageRenderer.statusPage(405, "Method not allowed", "Only GET and HEAD."));
      exchange.getResponseHeaders().set("Content-Type", response.contentType());
      if (response.location() != null) {
        exchange.getResponseHeaders().set("Location", response.location());
      }
      if (response.status() == 405) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
      }
      logged.status(response.status());
      boolean withBody = !method.equals("HEAD") && response.body().length > 0;
      // The end is stamped just before the response's last byte goes out: a client cannot
      // start its next request on this host before reading that byte, so a polite crawler's
      // requests never seem to overlap, as they could with a stamp taken after the write
      // returned (CI saw two "concurrent" requests that way). A real overlap still shows.
      if (!withBody) {
        logged.finish();
      }
      exchange.sendResponseHeaders(response.status(), withBody ? response.body().length : -1);
      if (withBody) {
        byte[] body = response.body();
        OutputStream out = exchange.getResponseBody();
        out.write(body, 0, body.length - 1);
        out.flush();
        logged.finish();
        out.write(body, body.length - 1, 1);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();   // the site is stopping
    } catch (IOException e) {
      // The client went away mid-response: a crawler's timeout or a test's shutdown.
      log.debug("Response to http://{}:{}{} cut: {}", host, port(), target, e.toString());
    } catch (RuntimeException e) {
      log.warn("Demo site failed on http://{}:{}{}; this is a bug in dev.crawler.demo", host, port(), target, e);
    } finally {
      logged.finish();
    }
  }

  private Response respond(String hostName, String target) {
    int h = graph.hostIndex(hostName);
    if (h < 0) {
      return Response.of(404, HTML, PageRenderer.statusPage(404, "Unknown host",
          "This demo site serves no host named '" + hostName.replace("<", "&lt;") + "'."));
    }
    Route route = graph.route(h, target);
    return switch (route.kind()) {
      case PAGE -> Response.of(200, HTML, renderer.page(h, route.id()));
      case REDIRECT -> {
        String location = graph.url(h, graph.path(graph.redirectTarget(h, route.id())));
        yield new Response(301, HTML, PageRenderer.statusPage(301, "Moved permanently", "This page moved."), location);
      }
      case ERROR -> Response.of(500, HTML,
          PageRenderer.statusPage(500, "Internal server error", "This page always fails, on purpose."));
      case ROBOTS -> Response.of(200, "text/plain; charset=utf-8", SiteFiles.robotsTxt(graph, h));
      case SITEMAP -> Response.of(200, "application/xml; charset=utf-8", SiteFiles.sitemapXml(graph, h));
      case DISALLOWED -> Response.of(200, HTML,
          PageRenderer.statusPage(200, "Private", "robots.txt disallows this page; a polite crawler never sees it."));
      case NOT_FOUND -> Response.of(404, HTML, PageRenderer.statusPage(404, "Not found", "No page here."));
    };
  }

  /** The name of a Host header ("www.example.com:8080", "[::1]:80"), lower case, without the port. */
  static String hostName(String header) {
    if (header == null) {
      return "";
    }
    String value = header.strip().toLowerCase(Locale.ROOT);
    int colon = value.lastIndexOf(':');
    if (colon >= 0 && value.indexOf(']') < colon) {
      value = value.substring(0, colon);
    }
    return value;
  }
}
