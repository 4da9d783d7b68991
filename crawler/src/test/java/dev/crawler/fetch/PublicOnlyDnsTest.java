package dev.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import com.google.common.net.InetAddresses;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import okhttp3.Dns;
import org.junit.jupiter.api.Test;

class PublicOnlyDnsTest {
  private static Dns answering(String... addresses) {
    return host -> Arrays.stream(addresses).map(InetAddresses::forString).toList();
  }

  @Test
  void aMixedAnswerKeepsOnlyThePublicAddresses() throws UnknownHostException {
    List<InetAddress> kept = new PublicOnlyDns(answering("10.0.0.1", "93.184.216.34", "::1")).lookup("mixed.test");

    assertThat(kept).containsExactly(InetAddresses.forString("93.184.216.34"));
  }

  @Test
  void anAnswerOfOnlyPrivateAddressesIsRefusedNamingThem() {
    assertThatExceptionOfType(PublicOnlyDns.PrivateAddressException.class)
        .isThrownBy(() -> new PublicOnlyDns(answering("10.0.0.1", "192.168.0.7")).lookup("intranet.test"))
        .withMessageContaining("intranet.test").withMessageContaining("10.0.0.1").withMessageContaining("192.168.0.7");
  }
}
