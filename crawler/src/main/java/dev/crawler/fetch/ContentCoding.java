package dev.crawler.fetch;

import java.util.Locale;
import okhttp3.Headers;

/**
 * Which response bodies the fetcher decodes: those gzip'd once and by nothing else. The fetcher
 * asks for gzip only, so OkHttp decodes nothing; a server that sends another coding anyway
 * (deflate, br, zstd, or gzip twice) has its body kept as sent. The WARC record needs the same
 * answer: it may drop {@code Content-Encoding} only from a body that was decoded.
 */
public final class ContentCoding {
  private ContentCoding() {}

  /** True if the headers name exactly one content coding, gzip (or x-gzip); identity is no coding. */
  public static boolean decodedByCrawler(Headers headers) {
    int codings = 0;
    boolean gzip = false;
    // Every Content-Encoding header counts: codings may be split across several, in the order applied.
    for (String value : headers.values("Content-Encoding")) {
      for (String token : value.split(",")) {
        String coding = token.trim().toLowerCase(Locale.ROOT);
        if (coding.isEmpty() || coding.equals("identity")) {
          continue;
        }
        codings++;
        gzip = coding.equals("gzip") || coding.equals("x-gzip");
      }
    }
    return codings == 1 && gzip;
  }
}
