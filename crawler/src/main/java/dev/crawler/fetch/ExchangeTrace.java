package dev.crawler.fetch;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.EventListener;
import okhttp3.Headers;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;

/**
 * What one call put on the wire, as OkHttp reports it: the request headers after OkHttp added
 * its own (Host, Connection), and the server's address. An event listener rather than a network
 * interceptor, because it also sees the address of a connection whose TLS handshake failed.
 * Fast fallback may connect to two addresses on two threads, hence volatile fields; the last
 * event wins, which is the connection the request went out on.
 *
 * <p>It also keeps a connection from serving another exchange when the bytes on it cannot be
 * trusted: any byte left unread after a response ({@link UnreadBytes}), or a response whose
 * headers frame its body ambiguously ({@link ResponseFraming}). Such a connection's socket is
 * closed as the body ends, before OkHttp hands the connection back to its pool; a pooled
 * connection found holding bytes as a request is about to go out is closed too, and OkHttp sends
 * the request again on a new one.
 */
final class ExchangeTrace extends EventListener {
  /** Run when the request's first byte is about to go out, on the calling thread; it may hold the request back. */
  private final Runnable onRequestStart;
  private volatile InetSocketAddress connecting;
  private volatile String remoteIp;
  private volatile Headers requestHeaders = Headers.EMPTY;
  private volatile Connection connection;
  private volatile boolean connectedForThisCall;
  private volatile boolean pooledConnection;
  private volatile ResponseFraming framing = ResponseFraming.CLEAR;

  ExchangeTrace(Runnable onRequestStart) {
    this.onRequestStart = onRequestStart;
  }

  /** The server's IP address, or null if no TCP connection was made. */
  String remoteIp() {
    return remoteIp;
  }

  /** The headers sent, empty if no request was written. */
  Headers requestHeaders() {
    return requestHeaders;
  }

  /** How the headers of the response framed its body; {@link ResponseFraming#CLEAR} before they arrive. */
  ResponseFraming framing() {
    return framing;
  }

  @Override
  public void connectStart(Call call, InetSocketAddress address, Proxy proxy) {
    connecting = address;
    connectedForThisCall = true;
  }

  @Override
  public void secureConnectStart(Call call) {
    // TCP is up; TLS may still fail, and the address is worth recording when it does.
    remember(connecting);
  }

  @Override
  public void connectEnd(Call call, InetSocketAddress address, Proxy proxy, Protocol protocol) {
    remember(address);
  }

  @Override
  public void connectionAcquired(Call call, Connection connection) {
    remember(connection.route().socketAddress());
    this.connection = connection;
    pooledConnection = !connectedForThisCall;
    connectedForThisCall = false;
  }

  @Override
  public void requestHeadersStart(Call call) {
    Connection c = connection;
    if (pooledConnection && c != null && http1(c) && UnreadBytes.on(c) > 0) {
      // Bytes that arrived before the request cannot be its answer. Writing to the closed socket
      // fails, and OkHttp retries a request that failed on a pooled connection on a new one.
      close(c);
      return;
    }
    onRequestStart.run();
  }

  @Override
  public void requestHeadersEnd(Call call, Request request) {
    requestHeaders = request.headers();
  }

  @Override
  public void responseHeadersEnd(Call call, Response response) {
    framing = ResponseFraming.of(response.headers());
  }

  @Override
  public void responseBodyEnd(Call call, long byteCount) {
    // Runs before OkHttp gives the connection back to its pool: no other call can have it yet.
    Connection c = connection;
    if (c != null && http1(c) && (framing != ResponseFraming.CLEAR || UnreadBytes.on(c) != 0)) {
      close(c);
    }
  }

  /** Only an HTTP/1 connection carries one exchange at a time; HTTP/2 frames every stream's bytes. */
  private static boolean http1(Connection connection) {
    return connection.protocol() == Protocol.HTTP_1_1 || connection.protocol() == Protocol.HTTP_1_0;
  }

  /** Closes the socket: OkHttp's pool finds it closed and drops it, never lending it again. */
  private static void close(Connection connection) {
    try {
      connection.socket().close();
    } catch (IOException alreadyBroken) {
      // Closed either way.
    }
  }

  private void remember(InetSocketAddress address) {
    if (address != null && address.getAddress() != null) {
      remoteIp = address.getAddress().getHostAddress();
    }
  }
}
