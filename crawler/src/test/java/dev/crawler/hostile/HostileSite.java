package dev.crawler.hostile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import okhttp3.Dns;

/**
 * A web site that misbehaves on purpose, served on 127.0.0.1 with raw sockets (a thread a
 * connection) so that HTTP can be broken where a real server library would not let it (a wrong
 * Content-Length, a reset in the middle of a body, an HTTP/1.0 answer, two Location headers, a
 * drip of one byte a second, a chunked body that never ends).
 *
 * <p>Every misbehaviour lives on a host of its own under {@code example.com}, chosen by the Host
 * header, so one host's back-off never delays another's case and the crawl runs them all at
 * once. {@link #dns()} maps those names to 127.0.0.1, except the ones that must fail: a name
 * that does not resolve ({@value #NXDOMAIN}), names that resolve to private addresses
 * ({@value #PRIVATE_HOST} to 10.0.0.7, {@value #METADATA_HOST} to 169.254.169.254; a test must
 * never connect to them, and only a crawl that forbids private addresses may see them), and
 * any name it does not know. {@link #deadPort()} is a port where nothing listens.
 *
 * <p>Each connection serves one request and closes ({@code Connection: close}), so no broken
 * answer can poison a kept-alive connection of another case; but the hosts in {@link #KEPT_ALIVE}
 * keep their connections open and lie on them, to show that what a lie leaves unread is never
 * taken for the answer to the next request. Every request is recorded in {@link #requests()},
 * with the number of the connection it came on, so tests judge the crawl by what the server saw.
 */
final class HostileSite implements AutoCloseable {
  static final String DOMAIN = "example.com";
  static final String NXDOMAIN = "nxdomain.example.com";
  static final String PRIVATE_HOST = "private.example.com";
  static final String METADATA_HOST = "metadata.example.com";
  /** Pages of the calendar trap: /cal/2025/01 links the month before and the month after, forever. */
  static final int CALENDAR_START_YEAR = 2025;
  static final int MANY_LINKS = 5_000;
  static final int LONG_URL_CHARS = 8 * 1024;
  static final int HUGE_ROBOTS_BYTES = 2 * 1024 * 1024;
  /** Where robots-huge's second Disallow line starts: past the 512 KiB a robots.txt parser must read. */
  static final int HUGE_ROBOTS_LATE_RULE_AT = 600 * 1024;
  static final int SINGLE_LINE_BYTES = 10 * 1024 * 1024;
  static final long GZIP_BOMB_BYTES = 64L * 1024 * 1024;
  private static final int MAX_HEAD_BYTES = 64 * 1024;
  /** Cases whose hosts keep connections alive: each lies in its answer to /page. */
  static final Set<String> KEPT_ALIVE = Set.of("keepalive-204-body", "keepalive-long-body", "keepalive-two-lengths",
      "keepalive-smuggled", "keepalive-smuggled-chunked");
  /** In the page a kept-alive lie smuggles after its answer: no record may hold it, no crawl may follow its link. */
  static final String SMUGGLED_PAGE = "<title>smuggled</title><a href=/smuggled-link>a link only a smuggled page has</a>";

  /**
   * One request as the server saw it.
   *
   * @param connection the number of the connection it came on, counted from 1 in the order accepted
   */
  record Request(Instant at, String host, String target, String method, String version, List<String> headerLines,
      int connection) {
    String path() {
      int q = target.indexOf('?');
      return q < 0 ? target : target.substring(0, q);
    }
  }

  private final ServerSocket serverSocket;
  private final int deadPort;
  private final List<String> indexLinks;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final ConcurrentLinkedQueue<Request> requests = new ConcurrentLinkedQueue<>();
  private final Map<String, Integer> hits = new ConcurrentHashMap<>();
  private final AtomicInteger connections = new AtomicInteger();
  private final byte[] gzipBomb;
  private final byte[] randomBytes;

  private HostileSite(ServerSocket serverSocket, int deadPort, List<String> linkTemplates) throws IOException {
    this.serverSocket = serverSocket;
    this.deadPort = deadPort;
    List<String> cases = linkTemplates.stream().map(this::url).toList();
    List<String> links = new ArrayList<>(cases);
    // Then each host's plain page, queued behind the host's cases.
    cases.stream().map(url -> url.replaceFirst("^(https?://[^/]+)/.*", "$1/ok")).distinct().forEach(links::add);
    this.indexLinks = List.copyOf(links);
    this.gzipBomb = gzipOfZeros(GZIP_BOMB_BYTES);
    this.randomBytes = new byte[256 * 1024];
    new Random(6).nextBytes(randomBytes);
  }

  /**
   * Binds 127.0.0.1 on a free port and serves. The seed page ({@link #seed()}) links to every
   * template, with {@code {port}} replaced by the site's port and {@code {dead}} by {@link #deadPort()}.
   */
  static HostileSite start(List<String> linkTemplates) throws IOException {
    int dead;
    try (ServerSocket probe = new ServerSocket(0, 1, loopback())) {
      dead = probe.getLocalPort();   // closed at once: nothing listens there afterwards
    }
    ServerSocket socket = new ServerSocket(0, 200, loopback());
    HostileSite site = new HostileSite(socket, dead, linkTemplates);
    Thread.ofPlatform().daemon().name("hostile-accept").start(site::accept);
    return site;
  }

  int port() {
    return serverSocket.getLocalPort();
  }

  int deadPort() {
    return deadPort;
  }

  /** {@code template} with {@code {port}} and {@code {dead}} filled in. */
  String url(String template) {
    return template.replace("{port}", Integer.toString(port())).replace("{dead}", Integer.toString(deadPort));
  }

  String seed() {
    return "http://www." + DOMAIN + ":" + port() + "/";
  }

  List<Request> requests() {
    return List.copyOf(requests);
  }

  List<Request> requests(String host) {
    return requests.stream().filter(r -> r.host().equals(host)).toList();
  }

  /** Names under {@link #DOMAIN} to 127.0.0.1, but for the ones that must fail; anything else does not resolve. */
  Dns dns() {
    return hostname -> {
      String name = hostname.toLowerCase(Locale.ROOT);
      if (name.equals(PRIVATE_HOST)) {
        return List.of(InetAddress.getByAddress(hostname, new byte[] {10, 0, 0, 7}));
      }
      if (name.equals(METADATA_HOST)) {
        return List.of(InetAddress.getByAddress(hostname, new byte[] {(byte) 169, (byte) 254, (byte) 169, (byte) 254}));
      }
      if (name.equals(NXDOMAIN) || !name.endsWith("." + DOMAIN)) {
        throw new UnknownHostException(hostname + ": no such host in the hostile site's resolver");
      }
      return List.of(InetAddress.getByAddress(hostname, new byte[] {127, 0, 0, 1}));
    };
  }

  private static InetAddress loopback() throws UnknownHostException {
    return InetAddress.getByAddress("localhost", new byte[] {127, 0, 0, 1});
  }

  private void accept() {
    while (!serverSocket.isClosed()) {
      try {
        Socket socket = serverSocket.accept();
        open.add(socket);
        // Platform threads, not virtual: a virtual-thread server in the crawl's JVM shares the
        // crawl's carrier threads (one a core), and the crawl's RocksDB calls pin them; on two
        // cores a busy crawl then froze the server for seconds and innocent pages timed out.
        // A web server is another machine: it must not wait for the crawler's scheduler.
        Thread.ofPlatform().daemon().name("hostile-connection").start(() -> serve(socket));
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void serve(Socket socket) {
    int connection = connections.incrementAndGet();
    try (socket) {
      socket.setSoTimeout(10_000);
      InputStream in = socket.getInputStream();
      OutputStream out = socket.getOutputStream();
      Request request = readRequest(in, connection);
      if (request == null) {
        // Not HTTP (a TLS ClientHello to this plain port): answer in plain HTTP, as a misconfigured server would.
        write(out, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        return;
      }
      while (request != null) {
        requests.add(request);
        respond(request, socket, out);
        if (!KEPT_ALIVE.contains(caseOf(request.host()))) {
          return;
        }
        // Idle until the crawler's next request, however slow a loaded machine makes it; close() ends it.
        socket.setSoTimeout(0);
        request = readRequest(in, connection);   // null when the crawler closes the connection
      }
    } catch (IOException clientWentAway) {
      // The crawler hangs up on purpose (cap, timeout, cancel): nothing to report.
    } finally {
      open.remove(socket);
    }
  }

  private static Request readRequest(InputStream in, int connection) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int first = in.read();
    if (first < 'A' || first > 'Z') {
      return null;   // not a request line: a TLS ClientHello starts with 0x16
    }
    head.write(first);
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    try {
      for (int b; matched < end.length && head.size() < MAX_HEAD_BYTES && (b = in.read()) != -1; ) {
        head.write(b);
        matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
      }
    } catch (SocketTimeoutException e) {
      return null;
    }
    String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    String[] requestLine = lines[0].split(" ");
    if (matched < end.length || requestLine.length != 3 || !requestLine[2].startsWith("HTTP/")) {
      return null;
    }
    List<String> headers = Arrays.asList(lines).subList(1, lines.length);
    String host = headers.stream().filter(h -> h.regionMatches(true, 0, "Host:", 0, 5)).findFirst()
        .map(h -> h.substring(5).trim().toLowerCase(Locale.ROOT)).orElse("");
    int colon = host.lastIndexOf(':');
    host = colon < 0 ? host : host.substring(0, colon);
    return new Request(Instant.now(), host, requestLine[1], requestLine[0], requestLine[2], List.copyOf(headers),
        connection);
  }

  private int hit(Request r) {
    return hits.merge(r.host() + r.target(), 1, Integer::sum);
  }

  // One case a host: <case>.example.com. Each host also answers /ok with a plain page, so a test
  // can see that the crawl of the host went on after its misbehaviour.
  private void respond(Request r, Socket socket, OutputStream out) throws IOException {
    String host = caseOf(r.host());
    String path = r.path();
    if (KEPT_ALIVE.contains(host)) {
      keptAlive(host, r, out);
      return;
    }
    if (path.equals("/robots.txt")) {
      robots(host, r, out);
      return;
    }
    if (host.equals("unavailable")) {
      write(out, "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: text/html\r\n"
          + "Content-Length: 11\r\nConnection: close\r\n\r\n<p>Go away.");
      return;
    }
    if (path.equals("/ok")) {
      html(out, 200, "<title>ok</title><p>A well-behaved page of " + r.host() + ".");
      return;
    }
    switch (host) {
      case "www" -> index(out);
      case "redirect-loop" -> redirect(out, path.equals("/a") ? "/b" : "/a");
      case "redirect-scheme" -> redirect(out, "ftp://files.example.com/pub/file.txt");
      case "redirect-chain" -> redirect(out, "/hop/" + (Integer.parseInt(path.substring("/hop/".length())) + 1));
      case "redirect-long" -> redirect(out, "/" + "x".repeat(LONG_URL_CHARS));
      case "redirect-none" -> write(out, "HTTP/1.1 302 Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      case "duplicate-location" -> write(out, "HTTP/1.1 302 Found\r\nLocation: /first\r\nLocation: /second\r\n"
          + "Content-Length: 0\r\nConnection: close\r\n\r\n");
      case "redirect-cut" -> {
        if (path.equals("/go")) {
          write(out, "HTTP/1.1 301 Moved Permanently\r\nLocation: /moved-here\r\nContent-Type: text/html\r\n"
              + "Content-Length: 5000\r\nConnection: close\r\n\r\n<p>Moved");
        } else {
          html(out, 200, "<p>The redirect's target.");
        }
      }
      case "gzip-endless-name" -> {
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n");
        out.write(new byte[] {0x1f, (byte) 0x8b, 8, 0x08, 0, 0, 0, 0, 0, 3});   // FLG.FNAME, and no zero byte to end it
        byte[] name = "n".repeat(65_536).getBytes(StandardCharsets.US_ASCII);
        for (int sent = 0; sent < 64 << 20; sent += name.length) {
          out.write(name);   // until the crawler hangs up, or 64 MB
        }
        out.flush();
      }
      case "gzip-trailing-byte" -> {
        if (path.equals("/page")) {
          byte[] page = gzip("<title>gzip</title><a href=/after-gzip>next</a><a href=/ok>ok</a>".getBytes(StandardCharsets.UTF_8));
          write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: "
              + (page.length + 1) + "\r\nConnection: close\r\n\r\n");
          out.write(page);
          out.write('\n');   // a stray echo after the compressed page
          out.flush();
        } else {
          html(out, 200, "<p>Reached through a gzip'd page.");
        }
      }
      case "deflate-zlib", "deflate-raw" -> {
        if (path.equals("/page")) {
          byte[] page = deflate("<title>deflate</title><a href=/after-deflate>next</a><a href=/ok>ok</a>"
              .getBytes(StandardCharsets.UTF_8), host.equals("deflate-zlib"));
          write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: deflate\r\nContent-Length: "
              + page.length + "\r\nConnection: close\r\n\r\n");
          out.write(page);
          out.flush();
        } else {
          html(out, 200, "<p>Reached through a deflated page.");
        }
      }
      case "odd-type" -> {
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: video/mp4; codecs\r\nConnection: close\r\n\r\n");
        byte[] block = new byte[64 * 1024];
        for (int sent = 0; sent < 64 << 20; sent += block.length) {
          out.write(block);   // an endless video, until the crawler hangs up
        }
        out.flush();
      }
      case "endless-chunked" -> {
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
        String chunk = Integer.toHexString(8192) + "\r\n" + "<p>endless</p>".repeat(8192 / 14) + "ab" + "\r\n";
        while (true) {
          write(out, chunk);
        }
      }
      case "oversized" -> {
        int size = 3 * 1024 * 1024;
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + size + "\r\nConnection: close\r\n\r\n");
        byte[] block = "<p>big</p>\n".repeat(1024).getBytes(StandardCharsets.US_ASCII);
        for (int sent = 0; sent < size; sent += block.length) {
          out.write(block, 0, Math.min(block.length, size - sent));
        }
        out.flush();
      }
      case "short-body" -> {
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n");
        write(out, "<a href=/ok>ok</a>" + "x".repeat(1000 - 18));
      }
      case "slow-drip" -> {
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100\r\nConnection: close\r\n\r\n");
        for (int i = 0; i < 100; i++) {
          write(out, "x");
          sleep(1000);
        }
      }
      case "reset-mid-body" -> {
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n");
        write(out, "<p>cut</p>".repeat(2000));
        sleep(100);   // let the bytes reach the client before the reset throws them away
        socket.setSoLinger(true, 0);
        socket.close();
      }
      case "gzip-bomb" -> {
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: "
            + gzipBomb.length + "\r\nConnection: close\r\n\r\n");
        out.write(gzipBomb);
        out.flush();
      }
      case "broken-gzip" -> {
        byte[] garbage = Arrays.copyOf(randomBytes, 4096);
        garbage[0] = 0x1f;
        garbage[1] = (byte) 0x8b;   // a gzip magic number, then nonsense
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: "
            + garbage.length + "\r\nConnection: close\r\n\r\n");
        out.write(garbage);
        out.flush();
      }
      case "binary-html" -> body(out, 200, "text/html; charset=utf-8", randomBytes);
      case "bad-utf8" -> {
        ByteArrayOutputStream page = new ByteArrayOutputStream();
        page.writeBytes("<title>bad</title><a href=/before>before</a>".getBytes(StandardCharsets.US_ASCII));
        page.writeBytes(new byte[] {(byte) 0xC3, 0x28, (byte) 0xE2, (byte) 0x82, (byte) 0xF0, (byte) 0x9F, (byte) 0xFF, 0});
        page.writeBytes("<a href=/after>after</a>".getBytes(StandardCharsets.US_ASCII));
        body(out, 200, "text/html; charset=utf-8", page.toByteArray());
      }
      case "charset-clash" -> {
        // The header says UTF-8, the page says windows-1251, the bytes are Latin-1: the header wins (WHATWG).
        ByteArrayOutputStream page = new ByteArrayOutputStream();
        page.writeBytes("<meta charset=windows-1251><a href=/caf".getBytes(StandardCharsets.US_ASCII));
        page.write(0xE9);
        page.writeBytes(">caf\u00e9</a><a href=/after>after</a>".getBytes(StandardCharsets.ISO_8859_1));
        body(out, 200, "text/html; charset=utf-8", page.toByteArray());
      }
      case "single-line" -> {
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + SINGLE_LINE_BYTES
            + "\r\nConnection: close\r\n\r\n");
        String start = "<html><body><a href=/start>start</a>";
        String end = "<a href=/end>end</a>";
        write(out, start);
        byte[] filler = "x".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
        int remaining = SINGLE_LINE_BYTES - start.length() - end.length();
        for (; remaining > 0; remaining -= filler.length) {
          out.write(filler, 0, Math.min(filler.length, remaining));
        }
        write(out, end);
      }
      case "many-links" -> {
        StringBuilder page = new StringBuilder("<title>5,000 links</title><ul>");
        for (int i = 0; i < MANY_LINKS; i++) {
          page.append("<li><a href=/item/").append(i).append(">item ").append(i).append("</a>\n");
        }
        html(out, 200, page.toString());
      }
      case "long-urls" -> html(out, 200, "<a href='/" + "y".repeat(LONG_URL_CHARS) + "'>long</a>"
          + "<a href='/q?" + "z=1&".repeat(LONG_URL_CHARS / 4) + "'>long query</a><a href=/ok>ok</a>");
      case "bad-hrefs" -> html(out, 200, !path.equals("/page") ? "<p>A page a malformed href led to." : """
          <a href="/a b">space</a> <a href="/été">unicode</a> <a href="javascript:alert(1)">js</a>
          <a href="mailto:someone@example.com">mail</a> <a href="http://">empty host</a>
          <a href="http://[::1">broken ipv6</a> <a href="/%zz">bad escape</a> <a href="  /padded  ">padded</a>
          <a href="ht!tp://x">bad scheme</a> <a href="">empty</a> <a href="data:text/html,hi">data</a>
          <a href="tel:+1555">tel</a> <a href="http://:80/">no host</a> <a href="/ok">ok</a>""");
      case "robots-redirect" -> {
        if (path.equals("/robots-real.txt")) {
          body(out, 200, "text/plain", "User-agent: *\nDisallow: /private\n".getBytes(StandardCharsets.US_ASCII));
        } else {
          html(out, 200, "<title>robots-redirect</title><a href=/ok>ok</a>");
        }
      }
      case "robots-loop" -> {
        if (path.equals("/robots-again.txt")) {
          redirect(out, "/robots.txt");
        } else {
          html(out, 200, "<title>robots-loop</title><a href=/ok>ok</a>");
        }
      }
            case "robots-5xx", "robots-huge", "robots-binary", "robots-delay-huge", "robots-delay-exponent" ->
          html(out, 200, "<title>" + host + "</title><a href=/ok>ok</a>");
      case "calendar" -> calendar(path, out);
      case "session-ids" -> {
        // Every link carries a fresh session id, in the query and in the path: a crawler that keeps them never ends.
        int page = r.target().contains("page=") ? Integer.parseInt(r.target().replaceAll(".*page=(\\d+).*", "$1")) : 1;
        String sid = Long.toHexString(new Random().nextLong());
        html(out, 200, "<a href='/shop?page=" + page + "&sid=" + sid + "'>again</a>"
            + "<a href='/shop;jsessionid=" + sid + "?page=" + page + "'>again</a>"
            + (page < 3 ? "<a href='/shop?page=" + (page + 1) + "&PHPSESSID=" + sid + "'>next</a>" : ""));
      }
      case "path-trap" -> html(out, 200, "<a href='again/'>again</a>");
      case "rate-limited" -> {
        if (hit(r) == 1) {
          write(out, "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        } else {
          html(out, 200, "<p>Thanks for waiting.");
        }
      }
      case "empty" -> write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      case "sitemap-gz" -> body(out, 200, "application/octet-stream", gzip(sitemapListing(r)));
      case "sitemap-html" -> body(out, 200, "text/html", sitemapListing(r));
      case "no-type" -> write(out, path.equals("/page")
          ? "HTTP/1.1 200 OK\r\nContent-Length: 43\r\nConnection: close\r\n\r\n<html><a href=/untyped-link>next</a></html>"
          : "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      case "http10" -> write(out, "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=/ok>ok</a>");
      case "garbage-status" -> write(out, "HTTP/1.1 two hundred OK\r\nContent-Length: 0\r\n\r\n");
      case "no-response" -> { }   // reads the request, closes
      case "silent" -> sleep(30_000);   // longer than the read timeout; close() ends it
      case "endless-headers" -> {
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n");
        while (true) {
          write(out, "X-Filler: " + "h".repeat(1000) + "\r\n");
        }
      }
      case "skipped-type" -> {
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\nConnection: close\r\n\r\n");
        while (true) {
          out.write(randomBytes);
        }
      }
      case "status-999" -> write(out, "HTTP/1.1 999 Request denied\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      default -> html(out, 404, "<p>No such page.");
    }
  }

  /** The case a host serves: its name less {@code .example.com}; empty for a host outside the domain. */
  private static String caseOf(String host) {
    return host.endsWith("." + DOMAIN) ? host.substring(0, host.length() - DOMAIN.length() - 1) : "";
  }

  /**
   * A host that keeps its connections alive and lies in its answer to /page, leaving bytes on the
   * connection that no length announced; robots.txt (a 404) and /ok are honest, on the same connection.
   */
  private static void keptAlive(String host, Request r, OutputStream out) throws IOException {
    String page = "<title>" + host + "</title><a href=/ok>ok</a>";
    String smuggled = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + SMUGGLED_PAGE.length()
        + "\r\n\r\n" + SMUGGLED_PAGE;
    if (!r.path().equals("/page")) {
      String body = r.path().equals("/ok") ? "<title>ok</title><p>A well-behaved page of " + r.host() + "." : "<p>No such page.";
      write(out, "HTTP/1.1 " + (r.path().equals("/ok") ? 200 : 404) + " X\r\nContent-Type: text/html; charset=utf-8\r\n"
          + "Content-Length: " + body.length() + "\r\n\r\n" + body);
      return;
    }
    write(out, switch (host) {
      case "keepalive-204-body" -> "HTTP/1.1 204 No Content\r\n\r\n<html>leftover body of a 204</html>";
      case "keepalive-long-body" -> "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + page.length()
          + "\r\n\r\n" + page + "<p>and more than the Content-Length counts</p>";
      case "keepalive-two-lengths" -> "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + (page.length() + 30)
          + "\r\nContent-Length: " + page.length() + "\r\n\r\n" + page + "<p>thirty bytes more: 1234</p>";
      case "keepalive-smuggled" -> "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + page.length()
          + "\r\n\r\n" + page + smuggled;
      case "keepalive-smuggled-chunked" -> "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
          + Integer.toHexString(page.length()) + "\r\n" + page + "\r\n0\r\n\r\n" + smuggled;
      default -> throw new IllegalStateException("no lie for " + host);
    });
  }

  private void robots(String host, Request r, OutputStream out) throws IOException {
    switch (host) {
      case "robots-5xx" -> write(out, "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      case "robots-huge" -> {
        byte[] robots = new byte[HUGE_ROBOTS_BYTES];
        byte[] start = "User-agent: *\nDisallow: /secret\n".getBytes(StandardCharsets.US_ASCII);
        byte[] comment = "# filler\n".getBytes(StandardCharsets.US_ASCII);
        byte[] late = "Disallow: /late\n".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < robots.length; i += comment.length) {
          System.arraycopy(comment, 0, robots, i, Math.min(comment.length, robots.length - i));
        }
        System.arraycopy(start, 0, robots, 0, start.length);
        int at = HUGE_ROBOTS_LATE_RULE_AT - HUGE_ROBOTS_LATE_RULE_AT % comment.length;
        System.arraycopy(late, 0, robots, at, late.length);
        body(out, 200, "text/plain", robots);
      }
      case "robots-binary" -> body(out, 200, "text/plain", randomBytes);
      case "robots-delay-huge" -> body(out, 200, "text/plain", "User-agent: *\nCrawl-delay: 3000000000\n".getBytes(StandardCharsets.US_ASCII));
      case "robots-delay-exponent" -> body(out, 200, "text/plain", "User-agent: *\nCrawl-delay: 1e30\n".getBytes(StandardCharsets.US_ASCII));
      case "robots-redirect" -> {
        if (r.target().equals("/robots.txt")) {
          redirect(out, "/robots-real.txt");
        }
      }
      case "robots-loop" -> redirect(out, "/robots-again.txt");
      case "many-links" -> body(out, 200, "text/plain", "User-agent: *\nDisallow: /item/\n".getBytes(StandardCharsets.US_ASCII));
      default -> html(out, 404, "<p>No robots.txt here.");
    }
  }

  private void index(OutputStream out) throws IOException {
    StringBuilder page = new StringBuilder("<title>A hostile web</title><ul>\n");
    for (String link : indexLinks) {
      page.append("<li><a href=\"").append(link).append("\">").append(link).append("</a>\n");
    }
    html(out, 200, page.append("</ul>").toString());
  }

  /** /cal/YYYY/MM links the month before and the month after: endless in both directions. */
  private static void calendar(String path, OutputStream out) throws IOException {
    String[] parts = path.split("/");
    int year = Integer.parseInt(parts[2]);
    int month = Integer.parseInt(parts[3]);
    int index = year * 12 + month - 1;
    html(out, 200, "<h1>" + year + "-" + month + "</h1>" + calendarLink(index - 1, "previous") + calendarLink(index + 1, "next"));
  }

  private static String calendarLink(int index, String text) {
    return String.format("<a href='/cal/%d/%02d'>%s</a>", index / 12, index % 12 + 1, text);
  }

  private static void redirect(OutputStream out, String location) throws IOException {
    write(out, "HTTP/1.1 302 Found\r\nLocation: " + location + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  }

  /** A sitemap of one page, /listed, of the request's host; only a crawl that reads it as a sitemap requests that page. */
  private byte[] sitemapListing(Request r) {
    return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
        + "<url><loc>http://" + r.host() + ":" + port() + "/listed</loc></url></urlset>\n").getBytes(StandardCharsets.UTF_8);
  }

  /** Deflated as RFC 9110 says (zlib-wrapped, RFC 1950) or as some servers do (raw, RFC 1951). */
  private static byte[] deflate(byte[] bytes, boolean zlib) {
    java.util.zip.Deflater deflater = new java.util.zip.Deflater(java.util.zip.Deflater.DEFAULT_COMPRESSION, !zlib);
    deflater.setInput(bytes);
    deflater.finish();
    ByteArrayOutputStream packed = new ByteArrayOutputStream();
    byte[] chunk = new byte[8192];
    while (!deflater.finished()) {
      packed.write(chunk, 0, deflater.deflate(chunk));
    }
    deflater.end();
    return packed.toByteArray();
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream packed = new ByteArrayOutputStream();
    try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(packed)) {
      gz.write(bytes);
    }
    return packed.toByteArray();
  }

  private static void html(OutputStream out, int status, String html) throws IOException {
    body(out, status, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8));
  }

  private static void body(OutputStream out, int status, String type, byte[] body) throws IOException {
    write(out, "HTTP/1.1 " + status + " X\r\nContent-Type: " + type + "\r\nContent-Length: " + body.length
        + "\r\nConnection: close\r\n\r\n");
    out.write(body);
    out.flush();
  }

  private static void write(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  private static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
  }

  private static byte[] gzipOfZeros(long size) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(bytes, 64 * 1024)) {
      byte[] zeros = new byte[64 * 1024];
      for (long written = 0; written < size; written += zeros.length) {
        gzip.write(zeros);
      }
    }
    return bytes.toByteArray();
  }

  @Override
  public void close() throws IOException {
    serverSocket.close();
    for (Socket socket : open) {
      socket.close();
    }
  }
}
