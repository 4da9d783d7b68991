package dev.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.Dns;
import okio.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.LoggerFactory;

class FetcherTest {
  private static final long MEGABYTE = 1 << 20;

  private final MockWebServer server = new MockWebServer();
  private final List<Fetcher> fetchers = new ArrayList<>();

  @BeforeEach
  void startServer() throws IOException {
    server.start(InetAddress.getByName("127.0.0.1"), 0);
  }

  @AfterEach
  void everyConnectionIsGivenBackAndTheServerStops() {
    try {
      for (Fetcher fetcher : fetchers) {
        assertThat(fetcher.connectionsInUse()).as("connections still held by a call: a leaked response").isZero();
        fetcher.close();
      }
    } finally {
      server.close();
    }
  }

  /** Short timeouts, 1 MB cap, HTML and text, loopback allowed: what most tests need. */
  private static FetcherOptions options() {
    return new FetcherOptions("testbot/1.0 (+https://example.com/bot)", Duration.ofSeconds(2),
        Duration.ofSeconds(2), Duration.ofSeconds(5), MEGABYTE, 4, List.of("text/html", "text/*"), true,
        NameToLoopbackDns.loopback());
  }

  private Fetcher fetcher(FetcherOptions options) {
    Fetcher fetcher = new Fetcher(options);
    fetchers.add(fetcher);
    return fetcher;
  }

  private Fetcher fetcher() {
    return fetcher(options());
  }

  private static FetcherOptions withTimeouts(Duration read, Duration total) {
    FetcherOptions o = options();
    return new FetcherOptions(o.userAgent(), o.connectTimeout(), read, total, o.maxContentBytes(),
        o.maxIdleConnections(), o.acceptedContentTypes(), o.allowPrivateAddresses(), o.dns());
  }

  private static FetcherOptions withCap(long cap) {
    FetcherOptions o = options();
    return new FetcherOptions(o.userAgent(), o.connectTimeout(), o.readTimeout(), o.totalTimeout(), cap,
        o.maxIdleConnections(), o.acceptedContentTypes(), o.allowPrivateAddresses(), o.dns());
  }

  private static FetcherOptions withPrivateAddresses(boolean allowed, Dns dns) {
    FetcherOptions o = options();
    return new FetcherOptions(o.userAgent(), o.connectTimeout(), o.readTimeout(), o.totalTimeout(),
        o.maxContentBytes(), o.maxIdleConnections(), o.acceptedContentTypes(), allowed, dns);
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getPort() + path;
  }

  private static MockResponse html(int code, String body) {
    return new MockResponse.Builder().code(code).setHeader("Content-Type", "text/html; charset=utf-8").body(body).build();
  }

  private static byte[] gzip(byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  // ---------------------------------------------------------------- responses

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(delimiter = '|', textBlock = """
      # code | reason phrase
      200    | OK
      201    | Created
      204    | No Content
      404    | Not Found
      410    | Gone
      418    | I'm a teapot
      500    | Internal Server Error
      503    | Service Unavailable
      """)
  void anyStatusIsAResponseWithItsCodeReasonAndHeaders(int code, String reason) {
    server.enqueue(new MockResponse.Builder().status("HTTP/1.1 " + code + " " + reason)
        .setHeader("Content-Type", "text/html; charset=ISO-8859-1").setHeader("X-Served-By", "test")
        .body(code == 204 ? "" : "<p>hello</p>").build());

    FetchResult result = fetcher().fetch(url("/page"));

    assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
    assertThat(result.cause()).isNull();
    assertThat(result.httpStatus()).isEqualTo(code);
    assertThat(result.reasonPhrase()).isEqualTo(reason);
    assertThat(result.protocol()).isEqualTo("HTTP/1.1");
    assertThat(result.responseHeaders().get("X-Served-By")).isEqualTo("test");
    assertThat(result.contentType()).isEqualTo("text/html");
    assertThat(result.charset()).isEqualTo(StandardCharsets.ISO_8859_1);
    assertThat(new String(result.body(), StandardCharsets.ISO_8859_1)).isEqualTo(code == 204 ? "" : "<p>hello</p>");
    assertThat(result.remoteIp()).isEqualTo("127.0.0.1");
    assertThat(result.url()).isEqualTo(url("/page"));
    assertThat(result.location()).isNull();
  }

  @ParameterizedTest(name = "Location {0}")
  @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
      # Location header       | expected, with PORT for the server's port; null when unusable
      /b                      | http://127.0.0.1:PORT/b
      c?x=1                   | http://127.0.0.1:PORT/dir/c?x=1
      ../up                   | http://127.0.0.1:PORT/up
      //other.test/y          | http://other.test/y
      https://other.test/x#f  | https://other.test/x#f
      '  /spaced  '           | http://127.0.0.1:PORT/spaced
      # RFC 9110 10.2.2: a Location that is not a URI reference is not followed
      http://[bad             | null
      ''                      | http://127.0.0.1:PORT/dir/page
      """)
  void aRedirectIsNotFollowedAndItsLocationIsResolvedAgainstTheUrl(String location, String expected) {
    server.enqueue(new MockResponse.Builder().code(301).addHeaderLenient("Location", location).build());

    FetchResult result = fetcher().fetch(url("/dir/page"));

    assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
    assertThat(result.isRedirect()).isTrue();
    assertThat(result.location()).isEqualTo(expected == null ? null : expected.replace("PORT", "" + server.getPort()));
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aStartHookThatRefusesCallsTheRequestOffBeforeItsFirstByte() throws InterruptedException {
    server.enqueue(html(200, "never asked for"));

    FetchResult result = fetcher().fetch(url("/"), () -> {
      throw new RequestRefused("its queue may no longer send it");
    });

    assertThat(result.status()).isEqualTo(FetchStatus.IO_ERROR);
    assertThat(result.cause()).contains("request called off");
    assertThat(server.takeRequest(300, TimeUnit.MILLISECONDS)).as("the request the server saw").isNull();
    FetchResult next = fetcher().fetch(url("/"));
    assertThat(next.httpStatus()).as("the next request, after one called off").isEqualTo(200);
  }

  @Test
  void aRedirectWithoutLocationHasNone() {
    server.enqueue(new MockResponse.Builder().code(302).build());

    FetchResult result = fetcher().fetch(url("/"));

    assertThat(result.isRedirect()).isTrue();
    assertThat(result.location()).isNull();
  }

  @Test
  void theUserAgentAcceptAndGzipHeadersAreSentAndRecorded() throws InterruptedException {
    server.enqueue(html(200, "ok"));

    FetchResult result = fetcher().fetch(url("/"));

    RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
    assertThat(request.getHeaders().get("User-Agent")).isEqualTo("testbot/1.0 (+https://example.com/bot)");
    assertThat(request.getHeaders().get("Accept")).startsWith("text/html");
    assertThat(request.getHeaders().get("Accept-Encoding")).isEqualTo("gzip");
    // What was sent, including what OkHttp added (Host), as the WARC request record needs.
    assertThat(result.requestHeaders().get("User-Agent")).isEqualTo("testbot/1.0 (+https://example.com/bot)");
    assertThat(result.requestHeaders().get("Host")).isEqualTo("127.0.0.1:" + server.getPort());
    assertThat(result.requestHeaders().get("Accept-Encoding")).isEqualTo("gzip");
  }

  @Test
  void manyVirtualThreadsShareOneFetcher() throws Exception {
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return html(200, "page " + request.getUrl().encodedPath());
      }
    });
    Fetcher fetcher = fetcher();
    List<Future<FetchResult>> results = new ArrayList<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 40; i++) {
        String path = "/p" + i;
        results.add(threads.submit(() -> fetcher.fetch(url(path))));
      }
    }
    for (int i = 0; i < 40; i++) {
      FetchResult result = results.get(i).get();
      assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
      assertThat(new String(result.body(), StandardCharsets.UTF_8)).isEqualTo("page /p" + i);
    }
  }

  // ---------------------------------------------------------------- bodies

  @Test
  void aGzipBodyIsDecodedAndWireBytesCountWhatWasSent() {
    byte[] page = "<html><body>hello hello hello hello</body></html>".repeat(100).getBytes(StandardCharsets.UTF_8);
    byte[] compressed = gzip(page);
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html").setHeader("Content-Encoding", "gzip")
        .body(new Buffer().write(compressed)).build());

    FetchResult result = fetcher().fetch(url("/"));

    assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
    assertThat(result.body()).isEqualTo(page);
    assertThat(result.truncated()).isFalse();
    assertThat(result.wireBytes()).isEqualTo(compressed.length);
  }

  @Test
  void aGzipBombStopsAtTheCapInDecompressedBytes() {
    // 50 MB of zeros is about 50 KB gzipped: a cap on wire bytes would let all of it in.
    byte[] bomb = gzip(new byte[50 * (int) MEGABYTE]);
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html").setHeader("Content-Encoding", "gzip")
        .body(new Buffer().write(bomb)).build());

    FetchResult result = fetcher().fetch(url("/bomb"));

    assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
    assertThat(result.truncated()).isTrue();
    assertThat(result.body()).hasSize((int) MEGABYTE);
    assertThat(result.wireBytes()).isLessThan(bomb.length);
  }

  @Test
  void brokenGzipIsAProtocolErrorThatKeepsTheStatusCode() {
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html").setHeader("Content-Encoding", "gzip")
        .body("this is not gzip at all").build());

    FetchResult result = fetcher().fetch(url("/"));

    assertThat(result.status()).isEqualTo(FetchStatus.PROTOCOL_ERROR);
    assertThat(result.cause()).startsWith("bad gzip body");
    assertThat(result.httpStatus()).isEqualTo(200);
    assertThat(result.truncated()).isTrue();
  }

  @ParameterizedTest(name = "zlib-wrapped: {0}")
  @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
  void aDeflateBodyIsDecodedWhetherZlibWrappedOrRaw(boolean zlib) {
    byte[] page = "<html><a href=/next>next</a></html>".repeat(40).getBytes(StandardCharsets.UTF_8);
    java.util.zip.Deflater deflater = new java.util.zip.Deflater(6, !zlib);
    deflater.setInput(page);
    deflater.finish();
    byte[] sent = new byte[page.length];
    int length = deflater.deflate(sent);
    deflater.end();
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html").setHeader("Content-Encoding", "deflate")
        .body(new Buffer().write(sent, 0, length)).build());

    FetchResult result = fetcher().fetch(url("/"));

    assertThat(result.status()).as(result.cause()).isEqualTo(FetchStatus.RESPONSE);
    assertThat(result.body()).isEqualTo(page);
    assertThat(result.wireBytes()).isEqualTo(length);
  }

  @Test
  void brokenDeflateIsAProtocolErrorNamingIt() {
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html").setHeader("Content-Encoding", "deflate")
        .body(new Buffer().write(new byte[] {0x78, (byte) 0x9c, (byte) 0xff, (byte) 0xff, 0x12, 0x34})).build());

    FetchResult result = fetcher().fetch(url("/"));

    assertThat(result.status()).isEqualTo(FetchStatus.PROTOCOL_ERROR);
    assertThat(result.cause()).startsWith("bad deflate body");
    assertThat(result.httpStatus()).isEqualTo(200);
  }

  @Test
  void anEmptyBodyNamedGzipIsEmptyNotBroken() {
    server.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Encoding", "gzip").body("").build());

    FetchResult result = fetcher().fetch(url("/"));

    assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
    assertThat(result.body()).isEmpty();
  }

  @Test
  void aGzipHeaderWithAnEndlessFileNameStopsAtTheWireLimitNotTheHeap() throws IOException {
    // FLG.FNAME set and no zero byte to end the name: okio's GzipSource kept the name in memory
    // until the call's timeout, and an endless one filled the heap.
    try (ScriptedServer endless = new ScriptedServer((socket, in, out) -> {
      ScriptedServer.readRequestHead(in);
      ScriptedServer.write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
          + "Connection: close\r\n\r\n");
      out.write(new byte[] {0x1f, (byte) 0x8b, 8, 0x08, 0, 0, 0, 0, 0, 3});
      byte[] name = "a".repeat(65_536).getBytes(StandardCharsets.US_ASCII);
      while (true) {
        out.write(name); // until the fetcher hangs up
      }
    })) {
      FetchResult result = fetcher(withCap(100_000)).fetch(endless.url("/"));

      assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
      assertThat(result.truncated()).isTrue();
      assertThat(result.body()).isEmpty();
      assertThat(result.wireBytes()).isEqualTo(BodyReader.wireLimit(100_000));
    }
  }

  @Test
  void aStrayByteAfterTheGzipTrailerIsIgnoredAsBrowsersDo() {
    byte[] page = "<html><a href=/next>next</a></html>".getBytes(StandardCharsets.UTF_8);
    byte[] compressed = gzip(page);
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html").setHeader("Content-Encoding", "gzip")
        .body(new Buffer().write(compressed).writeUtf8("\n")).build());

    FetchResult result = fetcher().fetch(url("/"));

    assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
    assertThat(result.body()).isEqualTo(page);
    assertThat(result.truncated()).isFalse();
  }

  @Test
  void gzipMembersOneAfterAnotherAreOneBody() {
    byte[] first = "<html><a href=/one>one</a>".getBytes(StandardCharsets.UTF_8);
    byte[] second = "<a href=/two>two</a></html>".getBytes(StandardCharsets.UTF_8);
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html").setHeader("Content-Encoding", "gzip")
        .body(new Buffer().write(gzip(first)).write(gzip(second))).build());

    FetchResult result = fetcher().fetch(url("/"));

    assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
    assertThat(new String(result.body(), StandardCharsets.UTF_8))
        .isEqualTo("<html><a href=/one>one</a><a href=/two>two</a></html>");
  }

  @Test
  void gzipNamedTwiceIsDecodedOnceOnlyIfItIsOneCoding() {
    byte[] page = "<html>twice</html>".getBytes(StandardCharsets.UTF_8);
    byte[] twice = gzip(gzip(page));
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html")
        .addHeader("Content-Encoding", "gzip").addHeader("Content-Encoding", "gzip")
        .body(new Buffer().write(twice)).build());

    FetchResult result = fetcher().fetch(url("/"));

    // Two codings: kept as sent, as the WARC record then says (its Content-Encoding stays).
    assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
    assertThat(result.body()).isEqualTo(twice);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "video/mp4; codecs                    | true",
      "video/mp4;codecs=\"avc1\"           | true",
      "text/html ;charset=utf-8             | false",
      "text/html; charset=iso-8859-1; foo   | false",
  })
  void aTypeWithAnOddParameterIsStillJudgedByItsType(String header, boolean skipped) {
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", header).body("x".repeat(10_000)).build());

    FetchResult result = fetcher(withCap(100_000)).fetch(url("/"));

    assertThat(result.contentSkipped()).as(header).isEqualTo(skipped);
    assertThat(result.contentType()).isEqualTo(header.substring(0, header.indexOf(';')).trim());
  }

  @Test
  void theCharsetOfATypeWithABadParameterIsKept() {
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html; charset=iso-8859-1; foo")
        .body("caf\u00e9").build());

    FetchResult result = fetcher().fetch(url("/"));

    assertThat(result.contentType()).isEqualTo("text/html");
    assertThat(result.charset()).isEqualTo(StandardCharsets.ISO_8859_1);
  }

  @Test
  void anUnknownEncodingKeepsTheBytesAsSent() {
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html").setHeader("Content-Encoding", "br")
        .body("\u0001\u0002brotli?").build());

    FetchResult result = fetcher().fetch(url("/"));

    assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
    assertThat(new String(result.body(), StandardCharsets.UTF_8)).isEqualTo("\u0001\u0002brotli?");
    assertThat(result.truncated()).isFalse();
  }

  @ParameterizedTest(name = "{0} bytes, cap {1}")
  @CsvSource(textBlock = """
      # body bytes, cap, truncated
      65535,  65536, false
      65536,  65536, false
      65537,  65536, true
      300000, 65536, true
      """)
  void aBodyIsCutAtTheCapAndOnlyThen(int size, long cap, boolean truncated) {
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html").body("x".repeat(size)).build());

    FetchResult result = fetcher(withCap(cap)).fetch(url("/"));

    assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
    assertThat(result.truncated()).isEqualTo(truncated);
    assertThat(result.body()).hasSize((int) Math.min(size, cap));
  }

  @Test
  void anEndlessChunkedBodyEndsAtTheCap() throws IOException {
    try (ScriptedServer endless = new ScriptedServer((socket, in, out) -> {
      ScriptedServer.readRequestHead(in);
      ScriptedServer.write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n");
      String chunk = "1000\r\n" + "y".repeat(0x1000) + "\r\n";
      while (true) {
        ScriptedServer.write(out, chunk); // until the fetcher hangs up
      }
    })) {
      FetchResult result = fetcher(withCap(100_000)).fetch(endless.url("/"));

      assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
      assertThat(result.truncated()).isTrue();
      assertThat(result.body()).hasSize(100_000);
    }
  }

  @Test
  void anEndlessBodyWithoutLengthEndsAtTheCap() throws IOException {
    try (ScriptedServer endless = new ScriptedServer((socket, in, out) -> {
      ScriptedServer.readRequestHead(in);
      ScriptedServer.write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n");
      while (true) {
        ScriptedServer.write(out, "z".repeat(8192));
      }
    })) {
      FetchResult result = fetcher(withCap(50_000)).fetch(endless.url("/"));

      assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
      assertThat(result.truncated()).isTrue();
      assertThat(result.body()).hasSize(50_000);
    }
  }

  @Test
  void aTypeNotAcceptedIsNotRead() {
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/pdf")
        .body(new Buffer().write(new byte[2 * (int) MEGABYTE])).build());

    FetchResult result = fetcher().fetch(url("/file.pdf"));

    assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
    assertThat(result.contentSkipped()).isTrue();
    assertThat(result.contentType()).isEqualTo("application/pdf");
    assertThat(result.body()).isEmpty();
    assertThat(result.truncated()).isFalse();
  }

  @Test
  void aMissingContentTypeIsRead() {
    server.enqueue(new MockResponse.Builder().body("<p>untyped</p>").build());

    FetchResult result = fetcher().fetch(url("/"));

    assertThat(result.contentSkipped()).isFalse();
    assertThat(result.contentType()).isNull();
    assertThat(new String(result.body(), StandardCharsets.UTF_8)).isEqualTo("<p>untyped</p>");
  }

  @Test
  void fetchAnyTypeReadsWhatTheFilterWouldSkip() {
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/octet-stream").body("User-agent: *").build());

    FetchResult result = fetcher().fetchAnyType(url("/robots.txt"), 512 * 1024);

    assertThat(result.contentSkipped()).isFalse();
    assertThat(new String(result.body(), StandardCharsets.UTF_8)).isEqualTo("User-agent: *");
  }

  // ---------------------------------------------------------------- Retry-After

  @Test
  void retryAfterInSecondsIsReadFromA503() {
    server.enqueue(new MockResponse.Builder().code(503).setHeader("Retry-After", "120").build());

    FetchResult result = fetcher().fetch(url("/"));

    assertThat(result.isRetryLater()).isTrue();
    assertThat(result.retryAfter()).isEqualTo(Duration.ofSeconds(120));
  }

  @Test
  void retryAfterAsAnHttpDateIsReadFromA429() {
    String inTwoMinutes = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusMinutes(2));
    server.enqueue(new MockResponse.Builder().code(429).setHeader("Retry-After", inTwoMinutes).build());

    FetchResult result = fetcher().fetch(url("/"));

    assertThat(result.isRetryLater()).isTrue();
    assertThat(result.retryAfter()).isBetween(Duration.ofSeconds(100), Duration.ofSeconds(121));
  }

  @Test
  void retryAfterIsIgnoredOnOtherStatuses() {
    server.enqueue(new MockResponse.Builder().code(500).setHeader("Retry-After", "120").build());

    assertThat(fetcher().fetch(url("/")).retryAfter()).isNull();
  }

  // ---------------------------------------------------------------- failures

  @Test
  void aServerSilentLongerThanTheReadTimeoutIsATimeout() {
    server.enqueue(html(200, "late").newBuilder().headersDelay(3, TimeUnit.SECONDS).build());

    FetchResult result = fetcher(withTimeouts(Duration.ofMillis(300), Duration.ofSeconds(5))).fetch(url("/"));

    assertThat(result.status()).isEqualTo(FetchStatus.TIMEOUT);
    assertThat(result.cause()).contains("read timeout");
    assertThat(result.httpStatus()).isZero();
  }

  @Test
  void aSlowDripThatNeverTripsTheReadTimeoutEndsAtTheTotalTimeout() {
    // One byte every 100 ms: the read timeout (2 s) never fires, the total timeout (500 ms) must.
    server.enqueue(html(200, "d".repeat(1000)).newBuilder().throttleBody(1, 100, TimeUnit.MILLISECONDS).build());

    FetchResult result = fetcher(withTimeouts(Duration.ofSeconds(2), Duration.ofMillis(500))).fetch(url("/"));

    assertThat(result.status()).isEqualTo(FetchStatus.TIMEOUT);
    assertThat(result.cause()).contains("total timeout of 500ms");
    assertThat(result.duration()).isLessThan(Duration.ofSeconds(3));
    // What came before the timeout is kept.
    assertThat(result.httpStatus()).isEqualTo(200);
    assertThat(result.body()).isNotEmpty().hasSizeLessThan(1000);
    assertThat(result.truncated()).isTrue();
  }

  @Test
  void aClosedPortIsARefusedConnection() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      closedPort = socket.getLocalPort();
    }

    FetchResult result = fetcher().fetch("http://127.0.0.1:" + closedPort + "/");

    assertThat(result.status()).isEqualTo(FetchStatus.CONNECTION_REFUSED);
    assertThat(result.cause()).isNotBlank();
    assertThat(result.requestHeaders().size()).isZero();
  }

  @Test
  void aNameThatDoesNotResolveIsADnsFailure() {
    Fetcher fetcher = fetcher(withPrivateAddresses(true, new NameToLoopbackDns(Map.of("nowhere.test", "unknown"))));

    FetchResult result = fetcher.fetch("http://nowhere.test:" + server.getPort() + "/");

    assertThat(result.status()).isEqualTo(FetchStatus.DNS_FAILURE);
    assertThat(result.cause()).contains("nowhere.test");
    assertThat(result.remoteIp()).isNull();
  }

  @Test
  void httpsToAPlainHttpServerIsATlsFailure() throws IOException {
    try (ScriptedServer plain = new ScriptedServer((socket, in, out) ->
        ScriptedServer.write(out, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"))) {
      FetchResult result = fetcher().fetch("https://127.0.0.1:" + plain.port() + "/");

      assertThat(result.status()).isEqualTo(FetchStatus.TLS_FAILURE);
      assertThat(result.remoteIp()).isEqualTo("127.0.0.1");
    }
  }

  @Test
  void aBodyShorterThanItsContentLengthIsAProtocolErrorThatKeepsWhatArrived() throws IOException {
    try (ScriptedServer liar = new ScriptedServer((socket, in, out) -> {
      ScriptedServer.readRequestHead(in);
      ScriptedServer.write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100\r\n\r\n" + "a".repeat(40));
    })) {
      FetchResult result = fetcher().fetch(liar.url("/"));

      assertThat(result.status()).isEqualTo(FetchStatus.PROTOCOL_ERROR);
      assertThat(result.cause()).contains("unexpected end of stream");
      assertThat(result.httpStatus()).isEqualTo(200);
      assertThat(new String(result.body(), StandardCharsets.UTF_8)).isEqualTo("a".repeat(40));
      assertThat(result.truncated()).isTrue();
    }
  }

  @Test
  void aResetInTheMiddleOfTheBodyIsAConnectionResetThatKeepsWhatArrived() throws IOException {
    try (ScriptedServer resetter = new ScriptedServer((socket, in, out) -> {
      ScriptedServer.readRequestHead(in);
      ScriptedServer.write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n" + "b".repeat(500));
      sleep(300); // let the client read the first bytes before the reset reaches it
      ScriptedServer.reset(socket);
    })) {
      FetchResult result = fetcher().fetch(resetter.url("/"));

      assertThat(result.status()).isEqualTo(FetchStatus.CONNECTION_RESET);
      assertThat(result.httpStatus()).isEqualTo(200);
      // All 500 bytes, unless a very busy machine let the reset overtake some of them.
      assertThat(new String(result.body(), StandardCharsets.UTF_8)).matches("b{0,500}");
      assertThat(result.truncated()).isTrue();
    }
  }

  @ParameterizedTest(name = "{index}: {0}")
  @CsvSource(delimiter = '|', textBlock = """
      # what the server sends                                   | status
      HTTP/1.1 abc OK\\r\\n\\r\\n                                 | PROTOCOL_ERROR
      GARBAGE\\r\\n\\r\\n                                         | PROTOCOL_ERROR
      HTTP/1.1 200 OK\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\nzz\\r\\n | PROTOCOL_ERROR
      HTTP/1.1 200 OK\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n5\\r\\nabc | PROTOCOL_ERROR
      HTTP/1.1 200 OK\\r\\nBad Header Without Colon\\r\\n\\r\\n   | RESPONSE
      ''                                                          | CONNECTION_RESET
      """)
  void aServerThatBreaksHttpIsRecordedNotThrown(String script, FetchStatus expected) throws IOException {
    String bytes = script.replace("\\r", "\r").replace("\\n", "\n");
    try (ScriptedServer broken = new ScriptedServer((socket, in, out) -> {
      ScriptedServer.readRequestHead(in);
      ScriptedServer.write(out, bytes);
    })) {
      FetchResult result = fetcher().fetch(broken.url("/"));

      assertThat(result.status()).as(result.cause()).isEqualTo(expected);
    }
  }

  @ParameterizedTest(name = "{index}: {0}")
  @CsvSource(delimiter = '|', textBlock = """
      ftp://example.com/file
      mailto:someone@example.com
      not a url
      ''
      http://
      """)
  void aUrlOkHttpCannotRequestIsUnsupported(String url) {
    FetchResult result = fetcher().fetch(url);

    assertThat(result.status()).isEqualTo(FetchStatus.UNSUPPORTED_URL);
    assertThat(result.url()).isEqualTo(url);
  }

  // ---------------------------------------------------------------- private addresses

  @ParameterizedTest(name = "{index}: {0}")
  @CsvSource(textBlock = """
      http://127.0.0.1:PORT/
      http://[::1]:PORT/
      http://10.0.0.1:PORT/
      http://192.168.1.1:PORT/
      http://169.254.169.254/latest/meta-data/
      http://[fd00::1]/
      """)
  void aPrivateAddressLiteralIsRefusedWithoutConnecting(String url) {
    Fetcher fetcher = fetcher(withPrivateAddresses(false, NameToLoopbackDns.loopback()));

    FetchResult result = fetcher.fetch(url.replace("PORT", "" + server.getPort()));

    assertThat(result.status()).isEqualTo(FetchStatus.PRIVATE_ADDRESS);
    assertThat(result.remoteIp()).isNull();
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void theFirstPrivateAddressRefusedIsExplainedInTheLogOnce() {
    Logger logger = (Logger) LoggerFactory.getLogger(Fetcher.class);
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    logger.addAppender(logged);
    try {
      Fetcher fetcher = fetcher(withPrivateAddresses(false, NameToLoopbackDns.loopback()));
      fetcher.fetch("http://127.0.0.2/robots.txt");
      fetcher.fetch("http://127.0.0.3/page");

      assertThat(logged.list).singleElement().satisfies(e -> {
        assertThat(e.getLevel()).isEqualTo(Level.WARN);
        assertThat(e.getFormattedMessage()).startsWith("Refused http://127.0.0.2/robots.txt: ")
            .contains("scope.allow-private-addresses: true");
        assertThat(e.getThrowableProxy()).isNull();
      });
    } finally {
      logger.detachAppender(logged);
    }
  }


  @Test
  void aNumericHostTheJdkWouldReadAsAnAddressIsRefused() {
    Fetcher fetcher = fetcher(withPrivateAddresses(false, NameToLoopbackDns.loopback()));

    // 2130706433 is 127.0.0.1 written as one number.
    FetchResult result = fetcher.fetch("http://2130706433:" + server.getPort() + "/");

    assertThat(result.status()).isIn(FetchStatus.UNSUPPORTED_URL, FetchStatus.PRIVATE_ADDRESS);
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void aNameThatResolvesToAPrivateAddressIsRefusedWithoutConnecting() {
    NameToLoopbackDns dns = new NameToLoopbackDns(Map.of("intranet.test", "10.0.0.1"));
    Fetcher fetcher = fetcher(withPrivateAddresses(false, dns));

    FetchResult result = fetcher.fetch("http://intranet.test/");

    assertThat(result.status()).isEqualTo(FetchStatus.PRIVATE_ADDRESS);
    assertThat(result.cause()).contains("intranet.test").contains("10.0.0.1");
    assertThat(result.remoteIp()).isNull();
    assertThat(dns.lookups).hasValue(1);
  }

  @Test
  void aNameThatResolvesToLoopbackIsFetchedWhenPrivateAddressesAreAllowed() {
    server.enqueue(html(200, "local"));
    Fetcher fetcher = fetcher(withPrivateAddresses(true, NameToLoopbackDns.loopback()));

    FetchResult result = fetcher.fetch("http://site.test:" + server.getPort() + "/");

    assertThat(result.status()).isEqualTo(FetchStatus.RESPONSE);
    assertThat(result.remoteIp()).isEqualTo("127.0.0.1");
    assertThat(result.requestHeaders().get("Host")).isEqualTo("site.test:" + server.getPort());
  }

  @Test
  void aNameThatResolvesToLoopbackIsRefusedOtherwise() {
    Fetcher fetcher = fetcher(withPrivateAddresses(false, NameToLoopbackDns.loopback()));

    FetchResult result = fetcher.fetch("http://site.test:" + server.getPort() + "/");

    assertThat(result.status()).isEqualTo(FetchStatus.PRIVATE_ADDRESS);
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void aClosedFetcherRefusesToFetch() {
    Fetcher fetcher = fetcher();
    fetcher.close();
    fetcher.close(); // twice is fine

    assertThatIllegalStateException().isThrownBy(() -> fetcher.fetch(url("/")))
        .withMessageContaining("closed");
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
