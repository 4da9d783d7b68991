package dev.crawler.fetch;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * Addresses a crawler of the public web must not reach: a page that links to
 * {@code http://10.0.0.1/admin} or a name that resolves to 127.0.0.1 would otherwise make the
 * crawler a proxy into the network it runs in.
 *
 * <p>Private here means loopback (127/8, ::1), the "this network" block 0/8 and any-local,
 * site-local and private (10/8, 172.16/12, 192.168/16, fec0::/10, unique local fc00::/7),
 * link-local (169.254/16, fe80::/10), carrier-grade NAT (100.64/10, RFC 6598) and multicast.
 * An IPv4-mapped IPv6 address ({@code ::ffff:10.0.0.1}) is judged as its IPv4 address: Java
 * turns it into an {@link Inet4Address} when it is parsed or resolved.
 */
public final class PrivateAddresses {
  private PrivateAddresses() {}

  public static boolean isPrivate(InetAddress address) {
    if (address.isLoopbackAddress() || address.isAnyLocalAddress() || address.isSiteLocalAddress()
        || address.isLinkLocalAddress() || address.isMulticastAddress()) {
      return true;
    }
    byte[] bytes = address.getAddress();
    if (address instanceof Inet4Address) {
      int first = bytes[0] & 0xff;
      int second = bytes[1] & 0xff;
      boolean thisNetwork = first == 0;
      boolean carrierGradeNat = first == 100 && (second & 0xc0) == 64; // 100.64.0.0/10
      return thisNetwork || carrierGradeNat;
    }
    if (address instanceof Inet6Address) {
      return (bytes[0] & 0xfe) == 0xfc; // unique local fc00::/7
    }
    return false;
  }
}
