package dev.crawler.fetch;

import java.util.Locale;
import okhttp3.Headers;

/**
 * Which response bodies the fetcher decodes: those sent with exactly one content coding, gzip or
 * deflate. The fetcher asks for gzip only, so OkHttp decodes nothing; deflate comes anyway from
 * servers that send it unasked, and browsers decode it. Anything else (br, zstd, two codings) is
 * kept as sent. The WARC record needs the same answer: it may drop {@code Content-Encoding} only
 * from a body that was decoded.
 */
public enum ContentCoding {
  /** No coding, or one the fetcher does not decode: the body is kept as sent. */
  AS_SENT,
  /** gzip or x-gzip (RFC 9110 8.4.1.3), decoded by {@code GzipBody}. */
  GZIP,
  /** deflate (RFC 9110 8.4.1.2): zlib-wrapped as the RFC says, or raw as some servers send it; decoded by {@code DeflateBody}. */
  DEFLATE;

  /** The coding the fetcher decodes for these headers; identity is no coding. */
  public static ContentCoding of(Headers headers) {
    int codings = 0;
    ContentCoding last = AS_SENT;
    // Every Content-Encoding header counts: codings may be split across several, in the order applied.
    for (String value : headers.values("Content-Encoding")) {
      for (String token : value.split(",")) {
        String coding = token.trim().toLowerCase(Locale.ROOT);
        if (coding.isEmpty() || coding.equals("identity")) {
          continue;
        }
        codings++;
        last = switch (coding) {
          case "gzip", "x-gzip" -> GZIP;
          case "deflate" -> DEFLATE;
          default -> AS_SENT;
        };
      }
    }
    return codings == 1 ? last : AS_SENT;
  }

  /** True if the fetcher decodes a body with these headers ({@link #of} is not {@link #AS_SENT}). */
  public static boolean decodedByCrawler(Headers headers) {
    return of(headers) != AS_SENT;
  }
}
