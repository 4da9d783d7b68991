package dev.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.net.InetAddresses;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PrivateAddressesTest {
  @ParameterizedTest(name = "{0} private: {1}")
  @CsvSource(textBlock = """
      # loopback
      127.0.0.1,        true
      127.255.0.9,      true
      ::1,              true
      # "this network" and any-local
      0.0.0.0,          true
      0.1.2.3,          true
      ::,               true
      # RFC 1918
      10.0.0.1,         true
      172.16.0.1,       true
      172.31.255.255,   true
      172.32.0.1,       false
      172.15.255.255,   false
      192.168.0.1,      true
      192.169.0.1,      false
      # link-local, with the cloud metadata address
      169.254.169.254,  true
      fe80::1,          true
      # carrier-grade NAT, RFC 6598: 100.64.0.0/10
      100.64.0.1,       true
      100.127.255.255,  true
      100.63.255.255,   false
      100.128.0.1,      false
      # multicast
      224.0.0.1,        true
      ff02::1,          true
      # IPv6 unique local fc00::/7 and the old site-local fec0::/10
      fc00::1,          true
      fd12:3456::1,     true
      fec0::1,          true
      # IPv4-mapped IPv6 is judged as IPv4
      ::ffff:10.0.0.1,  true
      ::ffff:8.8.8.8,   false
      # public
      8.8.8.8,          false
      93.184.216.34,    false
      2606:2800:220:1::1, false
      """)
  void anAddressIsPrivateWhenItIsInAReservedRange(String address, boolean expected) {
    assertThat(PrivateAddresses.isPrivate(InetAddresses.forString(address))).isEqualTo(expected);
  }

  /**
   * What the system resolver returns for an AAAA record: an Inet6Address, even for the forms
   * that carry an IPv4 address (parsing a literal turns only the mapped form into an Inet4Address).
   */
  @ParameterizedTest(name = "{0} private: {1}")
  @org.junit.jupiter.params.provider.CsvSource({
      "::ffff:127.0.0.1, true",
      "::ffff:10.0.0.7, true",
      "::ffff:169.254.169.254, true",
      "::ffff:8.8.8.8, false",
      "::127.0.0.1, true",
      "::8.8.8.8, false",
      "64:ff9b::a9fe:a9fe, true",
      "64:ff9b::808:808, false",
      "2002:7f00:1::, true",
      "2002:c0a8:101::1, true",
      "2002:808:808::1, false",
      "2606:4700::6810:85e5, false"})
  void anIpv6AddressCarryingAnIpv4OneIsJudgedByIt(String address, boolean expected) throws Exception {
    byte[] bytes = java.net.Inet6Address.getByName(address).getAddress();
    if (bytes.length == 4) {   // the parser made a mapped literal IPv4: build the 16 bytes the resolver gives
      byte[] v6 = new byte[16];
      v6[10] = (byte) 0xff;
      v6[11] = (byte) 0xff;
      System.arraycopy(bytes, 0, v6, 12, 4);
      bytes = v6;
    }
    java.net.InetAddress v6 = java.net.Inet6Address.getByAddress(null, bytes, -1);
    assertThat(v6).isInstanceOf(java.net.Inet6Address.class);
    assertThat(PrivateAddresses.isPrivate(v6)).isEqualTo(expected);
  }
}
