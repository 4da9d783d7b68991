package dev.crawler.fetch;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.ProtocolException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/**
 * A failed exchange as the crawl records it: a status to count and a short cause to read in
 * the crawl log. Causes are one line and never a stack trace: a bad server is expected.
 */
record FetchFailure(FetchStatus status, String cause) {
  private static final int MAX_CAUSE_LENGTH = 160;
  /** Okio's EOFException when a line has no end within the limit and some bytes arrived: {@code \n not found: limit=N} with N > 0. */
  private static final Pattern HEADER_LINE_CUT = Pattern.compile("\\\\n not found: limit=[1-9]");

  /**
   * Classifies an OkHttp failure. Order matters: OkHttp's own exceptions are subclasses of the
   * JDK's (a call timeout is an {@link InterruptedIOException}, a private address an
   * {@link UnknownHostException}), so the narrow cases come first.
   *
   * @param callTimedOut true when the whole-call timeout fired (OkHttp cancels the call then)
   * @param options for the timeouts to name in the cause
   */
  static FetchFailure of(IOException e, boolean callTimedOut, FetcherOptions options) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    String lower = message.toLowerCase(Locale.ROOT);
    if (e instanceof PublicOnlyDns.PrivateAddressException) {
      return failure(FetchStatus.PRIVATE_ADDRESS, message);
    }
    if (callTimedOut) {
      return failure(FetchStatus.TIMEOUT, "total timeout of " + text(options.totalTimeout()) + " passed");
    }
    if (e instanceof SocketTimeoutException) {
      return lower.contains("connect")
          ? failure(FetchStatus.TIMEOUT, "connect timed out after " + text(options.connectTimeout()))
          : failure(FetchStatus.TIMEOUT, "no data for " + text(options.readTimeout()) + " (read timeout)");
    }
    if (e instanceof InterruptedIOException && Thread.currentThread().isInterrupted()) {
      return failure(FetchStatus.IO_ERROR, "interrupted");
    }
    if (e instanceof InterruptedIOException && lower.equals("timeout")) {
      return failure(FetchStatus.TIMEOUT, "total timeout of " + text(options.totalTimeout()) + " passed");
    }
    if (e instanceof UnknownHostException) {
      return failure(FetchStatus.DNS_FAILURE, "host not found: " + message);
    }
    if (e instanceof ConnectException) {
      return failure(FetchStatus.CONNECTION_REFUSED, message);
    }
    if (e instanceof SSLException) {
      return failure(FetchStatus.TLS_FAILURE, message);
    }
    if (e instanceof NoRouteToHostException) {
      return failure(FetchStatus.IO_ERROR, message);
    }
    if (e instanceof SocketException && (lower.contains("reset") || lower.contains("broken pipe"))) {
      return failure(FetchStatus.CONNECTION_RESET, message);
    }
    if (e instanceof ProtocolException) {
      // Bad status line, bad chunk header, or "unexpected end of stream": a body shorter than
      // its Content-Length or a chunked body without its last chunk.
      return failure(FetchStatus.PROTOCOL_ERROR, message);
    }
    if (e.getCause() instanceof EOFException eof && eof.getMessage() != null
        && HEADER_LINE_CUT.matcher(eof.getMessage()).lookingAt()) {
      // Okio's words for a header line without its end: more bytes than OkHttp's 256 KiB limit
      // on the headers, or a line cut by the close. OkHttp wraps them in "unexpected end of
      // stream", which would read as a connection closed before it sent anything (limit=0).
      return failure(FetchStatus.PROTOCOL_ERROR, "response headers cut off or over OkHttp's 256 KiB limit");
    }
    if (e instanceof EOFException || lower.startsWith("unexpected end of stream")) {
      // OkHttp's words for a connection closed before the status line and headers arrived.
      return failure(FetchStatus.CONNECTION_RESET, "connection closed before the response headers");
    }
    return failure(FetchStatus.IO_ERROR, e.getClass().getSimpleName() + ": " + message);
  }

  static FetchFailure badEncoding(ContentCoding coding, IOException e) {
    return failure(FetchStatus.PROTOCOL_ERROR, "bad " + coding.name().toLowerCase(Locale.ROOT) + " body: " + e.getMessage());
  }

  static FetchFailure brokenFraming(okhttp3.Headers headers) {
    return failure(FetchStatus.PROTOCOL_ERROR, "conflicting or invalid Content-Length: "
        + String.join(", ", headers.values("Content-Length")));
  }

  static FetchFailure unsupportedUrl(String why) {
    return failure(FetchStatus.UNSUPPORTED_URL, why);
  }

  static FetchFailure privateAddress(String host) {
    return failure(FetchStatus.PRIVATE_ADDRESS, host + " is a private address");
  }

  private static FetchFailure failure(FetchStatus status, String cause) {
    String oneLine = cause.replaceAll("\\s+", " ").trim();
    return new FetchFailure(status, oneLine.length() <= MAX_CAUSE_LENGTH
        ? oneLine : oneLine.substring(0, MAX_CAUSE_LENGTH - 3) + "...");
  }

  /** "300ms", "10s", "1.5s": how people write a timeout. */
  private static String text(Duration duration) {
    long millis = duration.toMillis();
    if (millis < 1000) {
      return millis + "ms";
    }
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis / 1000.0 + "s";
  }
}
