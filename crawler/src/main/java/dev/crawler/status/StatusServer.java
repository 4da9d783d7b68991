package dev.crawler.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.crawler.config.ListenAddress;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crawl's web server on {@code status.listen}, the JDK's {@link HttpServer}: the page at
 * {@code /} with its scripts and uPlot (bundled in the jar, no CDN), {@code /status.json} and
 * {@code /metrics}. Two threads serve it: a scrape or a poll never waits on the crawl's locks,
 * only on the last report.
 */
final class StatusServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StatusServer.class);
  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static final String WEB = "/dev/crawler/status/web/";
  /** The page's files and their types: nothing else of the class path is served. */
  private static final Map<String, String> FILES = Map.of(
      "index.html", "text/html; charset=utf-8",
      "status.js", "text/javascript; charset=utf-8",
      "status.css", "text/css; charset=utf-8",
      "uPlot.iife.min.js", "text/javascript; charset=utf-8",
      "uPlot.min.css", "text/css; charset=utf-8");

  private final HttpServer server;
  private final ExecutorService threads;

  private StatusServer(HttpServer server, ExecutorService threads) {
    this.server = server;
    this.threads = threads;
  }

  /**
   * Listens at {@code at} and serves until closed.
   *
   * @param document the status document with the history after a time (seconds since the epoch)
   * @throws IOException saying so when the address is in use or cannot be had
   */
  static StatusServer start(ListenAddress at, DoubleFunction<StatusDocument> document, CrawlMetrics metrics)
      throws IOException {
    InetSocketAddress address = new InetSocketAddress(at.host(), at.port());
    if (address.isUnresolved()) {
      throw new IOException("status.listen " + at + ": the host " + at.host() + " does not resolve");
    }
    HttpServer server;
    try {
      server = HttpServer.create(address, 0);
    } catch (BindException e) {
      throw new IOException("status.listen " + at + " is in use or not this machine's (" + e.getMessage()
          + "): set status.listen to a free port, port 0 for any, or off", e);
    }
    ExecutorService threads = Executors.newFixedThreadPool(2, task -> {
      Thread thread = new Thread(task, "crawl-status");
      thread.setDaemon(true);
      return thread;
    });
    server.setExecutor(threads);
    server.createContext("/", exchange -> serve(exchange, () -> page(exchange)));
    server.createContext("/status.json", exchange -> serve(exchange, () -> {
      double since = since(exchange.getRequestURI());
      send(exchange, 200, "application/json", JSON.writeValueAsBytes(document.apply(since)));
    }));
    server.createContext("/metrics", exchange -> serve(exchange, () -> {
      ByteArrayOutputStream body = new ByteArrayOutputStream(64 << 10);
      String type = metrics.scrape(body, exchange.getRequestHeaders().getFirst("Accept"));
      send(exchange, 200, type, body.toByteArray());
    }));
    server.start();
    return new StatusServer(server, threads);
  }

  /** Where it listens, with the port it was given when the configuration said 0. */
  InetSocketAddress address() {
    return server.getAddress();
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdown();
    try {
      threads.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private interface Answer {
    void run() throws IOException;
  }

  private static void serve(HttpExchange exchange, Answer answer) {
    try (exchange) {
      if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
        send(exchange, 405, "text/plain; charset=utf-8", "GET only\n".getBytes(StandardCharsets.UTF_8));
        return;
      }
      answer.run();
    } catch (IOException e) {
      // A browser that closed its tab, a scraper that gave up: nothing the crawl must know.
      log.debug("Status request {} not answered: {}", exchange.getRequestURI(), e.toString());
    } catch (RuntimeException e) {
      log.warn("Status request {} failed: {}", exchange.getRequestURI(), e.toString());
    }
  }

  private static void page(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String name = path.equals("/") ? "index.html" : path.substring(1);
    String type = FILES.get(name);
    if (type == null) {
      send(exchange, 404, "text/plain; charset=utf-8", ("no " + path + " here: try / or /metrics\n")
          .getBytes(StandardCharsets.UTF_8));
      return;
    }
    try (InputStream in = StatusServer.class.getResourceAsStream(WEB + name)) {
      if (in == null) {
        throw new IllegalStateException(WEB + name + " is missing from the jar: the build did not bundle it");
      }
      send(exchange, 200, type, in.readAllBytes());
    }
  }

  private static double since(URI uri) {
    String query = uri.getRawQuery();
    if (query != null) {
      for (String pair : query.split("&")) {
        if (pair.startsWith("since=")) {
          try {
            return Double.parseDouble(pair.substring("since=".length()));
          } catch (NumberFormatException e) {
            return 0;
          }
        }
      }
    }
    return 0;
  }

  private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(status, head ? -1 : body.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
