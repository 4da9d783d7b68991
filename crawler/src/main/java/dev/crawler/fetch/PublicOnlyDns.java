package dev.crawler.fetch;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import okhttp3.Dns;

/**
 * Resolves through a base {@link Dns} and keeps only public addresses. Judging the resolved
 * address, not the name, is what stops a public name that points at 10.0.0.1; keeping only the
 * public ones of a mixed answer means OkHttp never tries the private ones.
 */
final class PublicOnlyDns implements Dns {
  private final Dns base;

  PublicOnlyDns(Dns base) {
    this.base = base;
  }

  @Override
  public List<InetAddress> lookup(String hostname) throws UnknownHostException {
    List<InetAddress> all = base.lookup(hostname);
    List<InetAddress> publicOnes = all.stream().filter(a -> !PrivateAddresses.isPrivate(a)).toList();
    if (publicOnes.isEmpty() && !all.isEmpty()) {
      throw new PrivateAddressException(hostname + " resolves only to private addresses " + texts(all));
    }
    return publicOnes;
  }

  private static List<String> texts(List<InetAddress> addresses) {
    return addresses.stream().limit(4).map(InetAddress::getHostAddress).toList();
  }

  /**
   * Thrown from the resolver, so it is an {@link UnknownHostException} as {@link Dns} allows;
   * the fetcher tells it apart and records {@link FetchStatus#PRIVATE_ADDRESS}.
   */
  static final class PrivateAddressException extends UnknownHostException {
    PrivateAddressException(String message) {
      super(message);
    }
  }
}
