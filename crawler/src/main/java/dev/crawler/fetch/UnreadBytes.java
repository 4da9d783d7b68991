package dev.crawler.fetch;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.Socket;
import okhttp3.Connection;
import okio.BufferedSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bytes an HTTP/1 connection has received that no response has claimed: the rest of a body longer
 * than its Content-Length, a body sent with a 204, a whole second response nobody asked for. Read
 * as the next request's answer they would file one URL's content under another, so a connection
 * holding any must not serve another exchange.
 *
 * <p>They sit in two places: the socket (the kernel's buffer, or for TLS the decrypted bytes the
 * JDK holds) and OkHttp's read-ahead buffer, which reads up to 8 KiB at a time and has no public
 * view. That buffer is found by reflection, as the one field of OkHttp's connection that holds an
 * okio socket; if an OkHttp version hides it otherwise, the count is {@link #UNKNOWN} and the
 * caller must treat the connection as tainted. An encrypted record still in the kernel is not seen.
 */
final class UnreadBytes {
  /** The count cannot be known: OkHttp's read buffer was not found, or the socket failed. */
  static final long UNKNOWN = -1;

  private static final Logger log = LoggerFactory.getLogger(UnreadBytes.class);
  private static final Field READ_AHEAD = readAheadField();

  private UnreadBytes() {}

  /**
   * Bytes waiting on an HTTP/1 {@code connection}, or {@link #UNKNOWN}. Call it only from the
   * thread that reads the connection's response.
   */
  static long on(Connection connection) {
    long buffered = readAhead(connection);
    if (buffered == UNKNOWN) {
      return UNKNOWN;
    }
    Socket socket = connection.socket();
    try {
      return buffered + socket.getInputStream().available();
    } catch (IOException closed) {
      return UNKNOWN;
    }
  }

  /** True if the read-ahead buffer of OkHttp's connections can be seen: a test pins it per OkHttp version. */
  static boolean readAheadVisible() {
    return READ_AHEAD != null;
  }

  private static long readAhead(Connection connection) {
    if (READ_AHEAD == null || !READ_AHEAD.getDeclaringClass().isInstance(connection)) {
      return UNKNOWN;
    }
    try {
      return READ_AHEAD.get(connection) instanceof okio.Socket socket && socket.getSource() instanceof BufferedSource source
          ? source.getBuffer().size()
          : UNKNOWN;
    } catch (IllegalAccessException e) {
      return UNKNOWN;
    }
  }

  private static Field readAheadField() {
    String connectionClass = "okhttp3.internal.connection.RealConnection";
    try {
      Field found = null;
      for (Field field : Class.forName(connectionClass).getDeclaredFields()) {
        if (okio.Socket.class.isAssignableFrom(field.getType())) {
          if (found != null) {
            found = null;   // two candidates: guessing could count the wrong buffer
            break;
          }
          found = field;
        }
      }
      if (found != null) {
        found.setAccessible(true);
        return found;
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      log.debug("OkHttp's read buffer is not visible", e);
    }
    log.warn("This OkHttp version hides its read-ahead buffer ({} has no single okio socket field): every HTTP/1 "
        + "connection is closed after one response, so that no unread bytes can answer the next request", connectionClass);
    return null;
  }
}
