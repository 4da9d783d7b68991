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
 * An IPv6 address that carries an IPv4 one is judged as that IPv4 address: IPv4-mapped
 * ({@code ::ffff:10.0.0.1}), IPv4-compatible ({@code ::10.0.0.1}), NAT64 ({@code 64:ff9b::/96})
 * and 6to4 ({@code 2002:AABB:CCDD::/48}). Java turns a mapped address it parses into an
 * {@link Inet4Address}, but not one the system resolver returns in an AAAA record, so a name
 * whose AAAA is {@code ::ffff:127.0.0.1} would otherwise reach loopback.
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
      Inet4Address embedded = embeddedIpv4(bytes);
      if (embedded != null) {
        return isPrivate(embedded);
      }
      return (bytes[0] & 0xfe) == 0xfc; // unique local fc00::/7
    }
    return false;
  }

  /** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64, 6to4), or null. */
  private static Inet4Address embeddedIpv4(byte[] v6) {
    int from;
    if (allZero(v6, 0, 10) && (v6[10] & 0xff) == 0xff && (v6[11] & 0xff) == 0xff) {
      from = 12;                                  // ::ffff:a.b.c.d
    } else if (allZero(v6, 0, 12) && !allZero(v6, 12, 16)
        && !(allZero(v6, 12, 15) && v6[15] == 1)) {
      from = 12;                                  // ::a.b.c.d (not :: or ::1, judged above)
    } else if ((v6[0] & 0xff) == 0x00 && (v6[1] & 0xff) == 0x64 && (v6[2] & 0xff) == 0xff
        && (v6[3] & 0xff) == 0x9b && allZero(v6, 4, 12)) {
      from = 12;                                  // 64:ff9b::a.b.c.d
    } else if ((v6[0] & 0xff) == 0x20 && (v6[1] & 0xff) == 0x02) {
      from = 2;                                   // 2002:aabb:ccdd::/48
    } else {
      return null;
    }
    try {
      return (Inet4Address) InetAddress.getByAddress(java.util.Arrays.copyOfRange(v6, from, from + 4));
    } catch (java.net.UnknownHostException e) {
      throw new AssertionError("four bytes are an IPv4 address", e);
    }
  }

  private static boolean allZero(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
