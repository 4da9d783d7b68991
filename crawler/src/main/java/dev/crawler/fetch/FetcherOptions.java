package dev.crawler.fetch;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import okhttp3.Dns;
import okhttp3.Headers;

/**
 * How a {@link Fetcher} talks to servers. Plain values: the crawl loop maps its configuration
 * onto them.
 *
 * @param userAgent the whole User-Agent header ({@code examplebot/1.0 (+https://example.com/bot)})
 * @param connectTimeout the longest wait for a TCP (and TLS) connection
 * @param readTimeout the longest silence while reading headers or body
 * @param totalTimeout the longest a whole fetch may take, body included: it ends a slow drip
 *     that never trips the read timeout
 * @param maxContentBytes the body cap, counted after decompression
 * @param maxIdleConnections connections kept open for reuse, over all hosts
 * @param acceptedContentTypes media types whose body is read: {@code text/html}, {@code text/*},
 *     {@code *}{@code /*}; a response without a Content-Type is always read
 * @param allowPrivateAddresses false refuses hosts that resolve only to loopback, private,
 *     link-local, CGNAT or multicast addresses (see {@link PrivateAddresses})
 * @param dns the base resolver: {@link Dns#SYSTEM} normally; tests map names to 127.0.0.1
 */
public record FetcherOptions(
    String userAgent,
    Duration connectTimeout,
    Duration readTimeout,
    Duration totalTimeout,
    long maxContentBytes,
    int maxIdleConnections,
    List<String> acceptedContentTypes,
    boolean allowPrivateAddresses,
    Dns dns) {

  public FetcherOptions {
    requireNonNull(userAgent, "userAgent");
    checkArgument(!userAgent.isBlank(), "User agent (%s) must not be blank", userAgent);
    // Fails here, at start, rather than on the first request: OkHttp refuses non-ASCII header values.
    Headers.of("User-Agent", userAgent);
    checkPositive(connectTimeout, "Connect timeout");
    checkPositive(readTimeout, "Read timeout");
    checkPositive(totalTimeout, "Total timeout");
    checkArgument(maxContentBytes > 0, "Max content bytes (%s) must be > 0", maxContentBytes);
    checkArgument(maxIdleConnections >= 0, "Max idle connections (%s) must be >= 0", maxIdleConnections);
    acceptedContentTypes = List.copyOf(acceptedContentTypes);
    acceptedContentTypes.forEach(ContentTypeFilter::checkPattern);
    requireNonNull(dns, "dns");
  }

  private static void checkPositive(Duration timeout, String name) {
    requireNonNull(timeout, name);
    checkArgument(timeout.isPositive(), "%s (%s) must be positive", name, timeout);
  }
}
