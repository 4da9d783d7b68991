package dev.crawler.fetch;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Dns;

/** Resolves test names to fixed addresses and nothing else, so no test reaches a real resolver. */
public final class NameToLoopbackDns implements Dns {
  private final Map<String, String> addresses;
  public final AtomicInteger lookups = new AtomicInteger();

  public NameToLoopbackDns(Map<String, String> addresses) {
    this.addresses = addresses;
  }

  /** Every name resolves to 127.0.0.1. */
  public static NameToLoopbackDns loopback() {
    return new NameToLoopbackDns(Map.of());
  }

  @Override
  public List<InetAddress> lookup(String hostname) throws UnknownHostException {
    lookups.incrementAndGet();
    String address = addresses.getOrDefault(hostname, "127.0.0.1");
    if (address.equals("unknown")) {
      throw new UnknownHostException(hostname + ": no such host in the test's resolver");
    }
    return List.of(InetAddress.getByAddress(hostname, InetAddress.getByName(address).getAddress()));
  }
}
