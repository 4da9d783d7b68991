package dev.crawler.fetch;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;

import com.google.common.net.InetAddresses;
import java.io.IOException;
import java.nio.charset.Charset;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import okhttp3.Call;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GETs one URL and says what happened, as a {@link FetchResult}: never an exception for
 * anything a server or the network does. One OkHttp configuration and dispatcher serve every
 * call, with a connection pool per shard of hosts ({@link PooledClients}); the fetcher is
 * thread-safe and meant to be called from many virtual threads at once.
 *
 * <p>The crawl, not OkHttp, follows redirects (each target goes back through scope and
 * URL-seen), so a 3xx is a response whose {@link FetchResult#location()} is resolved against
 * the URL. The body is read up to a cap counted in decompressed bytes; a type that is not
 * accepted is not read at all.
 *
 * <p>A failure after the headers arrived (a reset, a timeout, a body shorter than its
 * Content-Length, broken gzip or deflate) keeps what was learnt: the result has the failure's status and
 * cause, and also the status code, the headers and the body bytes read so far, with
 * {@code truncated} set.
 */
public final class Fetcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Fetcher.class);

  /** HTML first; anything else is still welcome, and the content-type filter decides. */
  static final String ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8";

  /** OkHttp's own test for an IP-literal host, which it connects to without asking the Dns. */
  private static final Runnable NOTHING = () -> { };

  private static final Pattern IP_LITERAL_SHAPE = Pattern.compile("[0-9a-fA-F]*:[0-9a-fA-F:.]*|[\\d.]+");

  private final FetcherOptions options;
  private final ContentTypeFilter acceptedTypes;
  private final PooledClients clients;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** The first private address refused is explained in the log; the rest are counted. */
  private final AtomicBoolean privateAddressExplained = new AtomicBoolean();

  public Fetcher(FetcherOptions options) {
    this.options = options;
    this.acceptedTypes = new ContentTypeFilter(options.acceptedContentTypes());
    this.clients = new PooledClients(new OkHttpClient.Builder()
        .followRedirects(false)
        .followSslRedirects(false)
        .connectTimeout(options.connectTimeout())
        .readTimeout(options.readTimeout())
        .writeTimeout(options.readTimeout())
        .callTimeout(options.totalTimeout())
        .dns(options.allowPrivateAddresses() ? options.dns() : new PublicOnlyDns(options.dns())),
        options.maxIdleConnections());
  }

  /** A GET of {@code url}, reading the body if its type is accepted, up to the content cap. */
  public FetchResult fetch(String url) {
    return fetch(url, NOTHING);
  }

  /**
   * As {@link #fetch(String)}, running {@code onRequestStart} as the request is about to go out
   * (after any connect), on the calling thread; not at all if no request was sent. It must not
   * throw; it may block to hold the request back (its wait counts against the total timeout).
   */
  public FetchResult fetch(String url, Runnable onRequestStart) {
    return fetch(url, acceptedTypes, options.maxContentBytes(), onRequestStart);
  }

  /** As {@link #fetch(String, Runnable)}, for a URL the caller has parsed already. */
  public FetchResult fetch(HttpUrl url, Runnable onRequestStart) {
    return fetch(url.toString(), url, acceptedTypes, options.maxContentBytes(), onRequestStart);
  }

  /** As {@link #fetchAnyType(String, Runnable)}, for a URL the caller has parsed already. */
  public FetchResult fetchAnyType(HttpUrl url, Runnable onRequestStart) {
    return fetch(url.toString(), url, ContentTypeFilter.ANY, options.maxContentBytes(), onRequestStart);
  }

  /** As {@link #fetchAnyType(String, long)}, up to {@code fetch.max-content-bytes}. */
  public FetchResult fetchAnyType(String url) {
    return fetchAnyType(url, options.maxContentBytes());
  }

  /** As {@link #fetchAnyType(String)}, with {@code onRequestStart} as {@link #fetch(String, Runnable)} runs it. */
  public FetchResult fetchAnyType(String url, Runnable onRequestStart) {
    return fetch(url, ContentTypeFilter.ANY, options.maxContentBytes(), onRequestStart);
  }

  /**
   * A GET that reads a body of any type, up to {@code maxContentBytes}: for robots.txt and
   * sitemaps, which servers label with whatever type they like.
   */
  public FetchResult fetchAnyType(String url, long maxContentBytes) {
    return fetchAnyType(url, maxContentBytes, NOTHING);
  }

  /** As {@link #fetchAnyType(String, long)}, with {@code onRequestStart} as {@link #fetch(String, Runnable)} runs it. */
  public FetchResult fetchAnyType(String url, long maxContentBytes, Runnable onRequestStart) {
    checkArgument(maxContentBytes > 0, "Max content bytes (%s) must be > 0", maxContentBytes);
    return fetch(url, ContentTypeFilter.ANY, maxContentBytes, onRequestStart);
  }

  /** Evicts idle connections and stops OkHttp's threads. Calls in flight may still finish. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      clients.close();
    }
  }

  /** Connections handed to a call and not given back: zero when no fetch is running and none leaked. */
  int connectionsInUse() {
    return clients.connectionsInUse();
  }

  // The stages of one fetch, in order: parse the URL, refuse private literals, send, read the
  // headers, decide on the body, read it. Each stage that can end the fetch returns a result.
  private FetchResult fetch(String url, ContentTypeFilter filter, long cap, Runnable onRequestStart) {
    return fetch(url, url == null ? null : HttpUrl.parse(url), filter, cap, onRequestStart);
  }

  private FetchResult fetch(String url, HttpUrl httpUrl, ContentTypeFilter filter, long cap, Runnable onRequestStart) {
    FetchResult result = fetchOnce(url, httpUrl, filter, cap, onRequestStart);
    if (result.status() == FetchStatus.PRIVATE_ADDRESS && privateAddressExplained.compareAndSet(false, true)) {
      // A first crawl of a test site on 127.0.0.x otherwise shows only "robots unavailable".
      log.warn("Refused {}: {}. Only public addresses are crawled; set scope.allow-private-addresses: true "
          + "to crawl hosts on loopback, a LAN or link-local addresses. Later refusals are counted as "
          + "\"private address\" in the stats line.", url, result.cause());
    }
    return result;
  }

  /** @param httpUrl {@code url} as OkHttp reads it; null if it cannot */
  private FetchResult fetchOnce(String url, HttpUrl httpUrl, ContentTypeFilter filter, long cap, Runnable onRequestStart) {
    checkState(!closed.get(), "Fetcher is closed");
    Exchange exchange = new Exchange(url);
    if (httpUrl == null) {
      return exchange.failed(FetchFailure.unsupportedUrl("not an http(s) URL"), null);
    }
    if (!options.allowPrivateAddresses()) {
      FetchFailure refused = refuseLiteral(httpUrl.host());
      if (refused != null) {
        return exchange.failed(refused, null);
      }
    }
    Request request = new Request.Builder()
        .url(httpUrl)
        .header("User-Agent", options.userAgent())
        .header("Accept", ACCEPT)
        // Asking for gzip ourselves turns off OkHttp's transparent decompression; see BodyReader.
        .header("Accept-Encoding", "gzip")
        .build();
    Call call = clients.forHost(httpUrl.host()).newCall(request);
    ExchangeTrace trace = new ExchangeTrace(onRequestStart);
    call.addEventListener(trace);
    exchange.trace = trace;
    try {
      Response response;
      try {
        response = call.execute();
      } catch (IOException e) {
        return exchange.failed(FetchFailure.of(e, call.isCanceled(), options), null);
      }
      try (response) {
        exchange.readHeaders(response, httpUrl);
        if (trace.framing() == ResponseFraming.BROKEN) {
          // RFC 9112 section 6.3: discard the response and close the connection, unread.
          call.cancel();
          return exchange.failed(FetchFailure.brokenFraming(response.headers()), null);
        }
        if (!filter.accepts(exchange.contentType)) {
          // Closing an unread body would make OkHttp drain it to reuse the connection; a crawler
          // skipping a 200 MB video would rather pay for a new connection.
          call.cancel();
          exchange.contentSkipped = true;
          return exchange.answered();
        }
        BodyReader.Body body = BodyReader.read(response.body().source(), ContentCoding.of(response.headers()), cap);
        exchange.body = body;
        if (body.failure() != null) {
          FetchFailure failure = body.badEncoding()
              ? FetchFailure.badEncoding(ContentCoding.of(response.headers()), body.failure())
              : FetchFailure.of(body.failure(), call.isCanceled(), options);
          return exchange.failed(failure, body);
        }
        if (body.truncated()) {
          call.cancel(); // stop the server's sending; the rest of the body is unwanted
        }
        return exchange.answered();
      }
    } catch (RequestRefused e) {
      call.cancel();   // nothing was written: the hook runs before the request's first byte
      return exchange.failed(new FetchFailure(FetchStatus.IO_ERROR, "request called off: " + e.getMessage()), null);
    } catch (RuntimeException e) {
      // OkHttp has thrown unchecked exceptions on odd server input before; the crawl must go on.
      log.warn("Unexpected {} fetching {}: {}; recorded as IO_ERROR, please report it",
          e.getClass().getSimpleName(), url, e.getMessage());
      call.cancel();
      return exchange.failed(new FetchFailure(FetchStatus.IO_ERROR, e.getClass().getSimpleName()), exchange.body);
    }
  }

  /**
   * OkHttp connects to an IP-literal host without asking the Dns, so the guard in
   * {@link PublicOnlyDns} never sees it: judge it here. A numeric host that is not a plain
   * dotted address ({@code http://2130706433/}) would be read by the JDK as one, so it is refused.
   */
  private static FetchFailure refuseLiteral(String host) {
    if (!IP_LITERAL_SHAPE.matcher(host).matches()) {
      return null;
    }
    if (!InetAddresses.isInetAddress(host)) {
      return FetchFailure.unsupportedUrl("host " + host + " is neither a name nor a plain IP address");
    }
    return PrivateAddresses.isPrivate(InetAddresses.forString(host)) ? FetchFailure.privateAddress(host) : null;
  }

  private static String protocolName(Protocol protocol) {
    return switch (protocol) {
      case HTTP_1_0 -> "HTTP/1.0";
      case HTTP_1_1 -> "HTTP/1.1";
      case HTTP_2, H2_PRIOR_KNOWLEDGE -> "HTTP/2";
      case HTTP_3, QUIC -> "HTTP/3";
      default -> protocol.toString().toUpperCase(Locale.ROOT);
    };
  }

  /** What one fetch has learnt so far; becomes the {@link FetchResult}. */
  private static final class Exchange {
    final String url;
    final Instant startedAt = Instant.now();
    final long startNanos = System.nanoTime();
    ExchangeTrace trace;
    String protocol;
    int httpStatus;
    String reasonPhrase = "";
    Headers responseHeaders = Headers.EMPTY;
    String contentType;
    Charset charset;
    String location;
    Duration retryAfter;
    boolean contentSkipped;
    BodyReader.Body body;

    Exchange(String url) {
      this.url = url;
    }

    void readHeaders(Response response, HttpUrl httpUrl) {
      protocol = protocolName(response.protocol());
      httpStatus = response.code();
      reasonPhrase = response.message();
      responseHeaders = response.headers();
      ContentTypeHeader type = ContentTypeHeader.parse(response.header("Content-Type"));
      if (type != null) {
        contentType = type.type();
        charset = type.charset();
      }
      if (httpStatus >= 300 && httpStatus < 400) {
        String target = response.header("Location");
        HttpUrl resolved = target == null ? null : httpUrl.resolve(target.trim());
        location = resolved == null ? null : resolved.toString();
      }
      if (httpStatus == 429 || httpStatus == 503) {
        retryAfter = RetryAfter.parse(responseHeaders, Instant.now());
      }
    }

    FetchResult answered() {
      return result(FetchStatus.RESPONSE, null, body);
    }

    FetchResult failed(FetchFailure failure, BodyReader.Body partial) {
      return result(failure.status(), failure.cause(), partial);
    }

    private FetchResult result(FetchStatus status, String cause, BodyReader.Body read) {
      Duration duration = Duration.ofNanos(System.nanoTime() - startNanos);
      return new FetchResult(url, status, cause, startedAt, duration,
          trace == null ? null : trace.remoteIp(),
          trace == null ? Headers.EMPTY : trace.requestHeaders(),
          protocol, httpStatus, reasonPhrase, responseHeaders, contentType, charset,
          read == null ? new byte[0] : read.bytes(),
          read != null && read.truncated(),
          contentSkipped,
          read == null ? 0 : read.wireBytes(),
          location, retryAfter);
    }
  }
}
