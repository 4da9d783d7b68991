package dev.crawler.record;

import dev.crawler.fetch.ContentCoding;
import dev.crawler.fetch.FetchResult;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import okhttp3.Headers;
import okhttp3.HttpUrl;

/**
 * The HTTP message heads that go into WARC request and response records, rebuilt from a
 * {@link FetchResult}. OkHttp hands us parsed headers, not the bytes on the wire, so the head is
 * written again in HTTP/1.x form: header order and spelling as received, one header a line.
 *
 * <p>The response body in the record is the body as kept (gzip or deflate decoded, maybe cut at the cap), so
 * the headers that describe the wire form would lie about it. They are renamed, not dropped, as
 * StormCrawler's WARC module does: {@code Transfer-Encoding} and {@code Content-Length} become
 * {@code X-Crawler-Transfer-Encoding} and so on, and a {@code Content-Length} of the kept body is
 * added, so that WARC readers (pywb, jwarc) find the payload without decoding it again.
 * {@code Content-Encoding} is renamed only when the fetcher decoded the body
 * ({@link ContentCoding#decodedByCrawler}); a body kept as sent (br, zstd) keeps it, so a
 * replay knows the payload is still encoded.
 */
final class HttpBlocks {
  static final String RENAMED_PREFIX = "X-Crawler-";

  private HttpBlocks() {}

  /** {@code GET <path?query> HTTP/1.1}, then the request headers sent, Host first if they lack one. */
  static byte[] requestHead(FetchResult result) {
    StringBuilder head = new StringBuilder(512);
    HttpUrl url = HttpUrl.parse(result.url());
    head.append("GET ").append(url == null ? "/" : requestTarget(url)).append(' ')
        .append(statusLineVersion(result.protocol())).append("\r\n");
    Headers sent = result.requestHeaders() == null ? Headers.of() : result.requestHeaders();
    if (url != null && sent.get("Host") == null) {
      appendHeader(head, "Host", hostHeader(url));
    }
    for (int i = 0; i < sent.size(); i++) {
      appendHeader(head, sent.name(i), sent.value(i));
    }
    return head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The status line and headers as received, wire-form headers renamed, Content-Length of the kept body. */
  static byte[] responseHead(FetchResult result, int keptBodyLength) {
    StringBuilder head = new StringBuilder(1024);
    String reason = result.reasonPhrase() == null ? "" : result.reasonPhrase();
    // RFC 9112 section 4: status-line = HTTP-version SP status-code SP [ reason-phrase ]; the
    // second space stays when the reason is empty.
    head.append(statusLineVersion(result.protocol())).append(' ').append(result.httpStatus())
        .append(' ').append(oneLine(reason)).append("\r\n");
    Headers received = result.responseHeaders() == null ? Headers.of() : result.responseHeaders();
    boolean decoded = ContentCoding.decodedByCrawler(received);
    for (int i = 0; i < received.size(); i++) {
      String name = received.name(i);
      appendHeader(head, describesWireForm(name, decoded) ? RENAMED_PREFIX + name : name, received.value(i));
    }
    appendHeader(head, "Content-Length", Integer.toString(keptBodyLength));
    return head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The WARC-Protocol value for protocols a HTTP/1.x head cannot name, null otherwise. An HTTP/2
   * exchange is written as HTTP/1.1 (WARC readers parse only HTTP/1.x messages) and keeps its real
   * protocol in this field (proposed for WARC 1.2, written by wget and Browsertrix).
   */
  static String warcProtocol(String protocol) {
    if (protocol == null) {
      return null;
    }
    String p = protocol.toLowerCase(Locale.ROOT);
    return p.equals("h2") || p.equals("http/2") || p.equals("http/2.0") || p.equals("h2_prior_knowledge")
        ? "h2"
        : p.equals("h3") || p.equals("http/3") ? "h3" : null;
  }

  static String statusLineVersion(String protocol) {
    return protocol != null && protocol.equalsIgnoreCase("HTTP/1.0") ? "HTTP/1.0" : "HTTP/1.1";
  }

  private static boolean describesWireForm(String name, boolean decoded) {
    return (decoded && name.equalsIgnoreCase("Content-Encoding"))
        || name.equalsIgnoreCase("Transfer-Encoding")
        || name.equalsIgnoreCase("Content-Length");
  }

  private static String requestTarget(HttpUrl url) {
    String query = url.encodedQuery();
    return query == null ? url.encodedPath() : url.encodedPath() + "?" + query;
  }

  private static String hostHeader(HttpUrl url) {
    String host = url.host().contains(":") ? "[" + url.host() + "]" : url.host();
    return url.port() == HttpUrl.defaultPort(url.scheme()) ? host : host + ":" + url.port();
  }

  private static void appendHeader(StringBuilder head, String name, String value) {
    head.append(oneLine(name)).append(": ").append(oneLine(value)).append("\r\n");
  }

  /**
   * A CR or LF inside a value would end the header early and break every reader of the record,
   * and another control character in the status line made jwarc refuse the record: each becomes
   * a space (HTTP allows none of them but the tab).
   */
  private static String oneLine(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (isControl(text.charAt(i))) {
        StringBuilder clean = new StringBuilder(text);
        for (int j = i; j < clean.length(); j++) {
          if (isControl(clean.charAt(j))) {
            clean.setCharAt(j, ' ');
          }
        }
        return clean.toString();
      }
    }
    return text;
  }

  private static boolean isControl(char c) {
    return (c < 0x20 && c != '\t') || c == 0x7f;
  }
}
