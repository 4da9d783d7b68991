package dev.crawler.fetch;

import java.nio.charset.Charset;
import java.time.Duration;
import java.time.Instant;
import okhttp3.Headers;

/**
 * What one GET of one URL produced: enough to record it (WARC, crawl log), parse it and
 * schedule its host again. Never thrown: failures are a {@link FetchStatus} and a cause.
 *
 * @param url the requested URL, as given to the fetcher
 * @param status how the exchange ended
 * @param cause a short, human-readable reason for a failure ("connect timed out after 10s");
 *     null for {@link FetchStatus#RESPONSE}
 * @param startedAt when the request started
 * @param duration from the start of the call to the end of the body (or the failure)
 * @param remoteIp the server's IP address as text, null if no connection was made
 * @param requestHeaders the headers sent (User-Agent, Accept, Accept-Encoding...); empty if
 *     no request was sent
 * @param protocol "HTTP/1.1", "HTTP/1.0", "HTTP/2"; null without a response
 * @param httpStatus the status code, 0 without a response
 * @param reasonPhrase the status line's reason phrase, "" if none
 * @param responseHeaders the headers as received, empty without a response
 * @param contentType the media type without parameters, lower case ("text/html"); null if
 *     the response named none
 * @param charset the charset named by Content-Type, null if none or unknown
 * @param body the body after decompression, at most the content-size cap; empty without a
 *     response or when the content type is not accepted
 * @param truncated true when the body was cut at the cap (or by a mid-body failure after
 *     the cap was not reached: see {@code status})
 * @param contentSkipped true when the content type is not accepted, so the body was not read
 * @param wireBytes bytes of body received from the network (compressed, if it was)
 * @param location for a 3xx, the Location header resolved against {@code url}; null otherwise
 *     or when it is missing or unparseable
 * @param retryAfter for 429 and 503, the Retry-After (seconds or HTTP date) from now;
 *     null if absent, unparseable or another status
 */
public record FetchResult(
    String url,
    FetchStatus status,
    String cause,
    Instant startedAt,
    Duration duration,
    String remoteIp,
    Headers requestHeaders,
    String protocol,
    int httpStatus,
    String reasonPhrase,
    Headers responseHeaders,
    String contentType,
    Charset charset,
    byte[] body,
    boolean truncated,
    boolean contentSkipped,
    long wireBytes,
    String location,
    Duration retryAfter) {

  /**
   * A 3xx status line came, whether or not its body then arrived whole: a redirect's body matters
   * to no one, and a reset or a stall while reading it lost the redirect's target.
   */
  public boolean isRedirect() {
    return httpStatus >= 300 && httpStatus < 400;
  }

  /** A 429 or 503 status line came, whether or not its body then arrived whole (see {@link #isRedirect}). */
  public boolean isRetryLater() {
    return httpStatus == 429 || httpStatus == 503;
  }

  public boolean isHtml() {
    return "text/html".equals(contentType) || "application/xhtml+xml".equals(contentType);
  }
}
