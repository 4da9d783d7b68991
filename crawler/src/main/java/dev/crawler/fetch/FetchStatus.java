package dev.crawler.fetch;

/**
 * How one HTTP exchange ended at the network level. Only {@link #RESPONSE} means the server
 * answered; every other value is a failure the crawl records and counts, never an exception
 * that stops a worker.
 */
public enum FetchStatus {
  /** The server sent a status line and headers (any status code); the body may be cut, see {@link FetchResult#truncated()}. */
  RESPONSE,
  /** Connect, read or whole-call timeout. */
  TIMEOUT,
  /** The host name did not resolve. */
  DNS_FAILURE,
  /** Nothing listens on the port. */
  CONNECTION_REFUSED,
  /** The connection was reset or closed before the response was complete. */
  CONNECTION_RESET,
  /** TLS handshake or certificate failure. */
  TLS_FAILURE,
  /** The host resolved only to private, loopback or link-local addresses, and the config forbids them. */
  PRIVATE_ADDRESS,
  /** The server broke HTTP (bad status line, bad headers, bad chunking, bad compression). */
  PROTOCOL_ERROR,
  /** The URL could not be requested at all (OkHttp refused it). */
  UNSUPPORTED_URL,
  /** Any other I/O failure. */
  IO_ERROR;

  public boolean answered() {
    return this == RESPONSE;
  }
}
