package dev.crawler.fetch;

import java.net.InetSocketAddress;
import java.net.Proxy;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.EventListener;
import okhttp3.Headers;
import okhttp3.Protocol;
import okhttp3.Request;

/**
 * What one call put on the wire, as OkHttp reports it: the request headers after OkHttp added
 * its own (Host, Connection), and the server's address. An event listener rather than a network
 * interceptor, because it also sees the address of a connection whose TLS handshake failed.
 * Fast fallback may connect to two addresses on two threads, hence volatile fields; the last
 * event wins, which is the connection the request went out on.
 */
final class ExchangeTrace extends EventListener {
  /** Run when the request's first byte is about to go out, on the calling thread; it may hold the request back. */
  private final Runnable onRequestStart;
  private volatile InetSocketAddress connecting;
  private volatile String remoteIp;
  private volatile Headers requestHeaders = Headers.EMPTY;

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

  @Override
  public void connectStart(Call call, InetSocketAddress address, Proxy proxy) {
    connecting = address;
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
  }

  @Override
  public void requestHeadersStart(Call call) {
    onRequestStart.run();
  }

  @Override
  public void requestHeadersEnd(Call call, Request request) {
    requestHeaders = request.headers();
  }

  private void remember(InetSocketAddress address) {
    if (address != null && address.getAddress() != null) {
      remoteIp = address.getAddress().getHostAddress();
    }
  }
}
