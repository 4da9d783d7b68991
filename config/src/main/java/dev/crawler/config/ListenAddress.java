package dev.crawler.config;

/**
 * Where a server listens: a host (a name or an address; an IPv6 address without brackets) and a
 * port, 0 for any free one.
 */
public record ListenAddress(String host, int port) {
  public ListenAddress {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("A listen address needs a host, got \"" + host + "\"");
    }
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("Port (" + port + ") must be from 0 to 65535");
    }
  }

  /** {@code 127.0.0.1:9477}, {@code [::1]:9477}: as the config file writes it. */
  @Override
  public String toString() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
