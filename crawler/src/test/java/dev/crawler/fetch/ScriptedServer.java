package dev.crawler.fetch;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server on 127.0.0.1 that plays a script on every connection, for what MockWebServer will
 * not do: a broken status line, a body shorter than its Content-Length, an endless chunked
 * body, a reset (RST) in the middle of a body, plain bytes to a TLS client.
 */
final class ScriptedServer implements AutoCloseable {
  interface Script {
    void play(Socket socket, InputStream in, OutputStream out) throws IOException;
  }

  private final ServerSocket serverSocket;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicInteger connections = new AtomicInteger();

  ScriptedServer(Script script) throws IOException {
    serverSocket = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
    Thread.ofVirtual().name("scripted-server-accept").start(() -> {
      while (!serverSocket.isClosed()) {
        try {
          Socket socket = serverSocket.accept();
          connections.incrementAndGet();
          open.add(socket);
          Thread.ofVirtual().start(() -> serve(socket, script));
        } catch (IOException closed) {
          return;
        }
      }
    });
  }

  private void serve(Socket socket, Script script) {
    try (socket) {
      script.play(socket, socket.getInputStream(), socket.getOutputStream());
    } catch (IOException clientWentAway) {
      // The fetcher hangs up on purpose (cap, timeout): nothing to report.
    } finally {
      open.remove(socket);
    }
  }

  String url(String path) {
    return "http://127.0.0.1:" + serverSocket.getLocalPort() + path;
  }

  int port() {
    return serverSocket.getLocalPort();
  }

  int connections() {
    return connections.get();
  }

  /** Reads up to the blank line that ends a request's head, and returns the head. */
  static String readRequestHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    for (int b; matched < end.length && (b = in.read()) != -1; ) {
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  static void write(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  /** Ends the connection with a TCP reset rather than a clean close. */
  static void reset(Socket socket) throws IOException {
    socket.setSoLinger(true, 0);
    socket.close();
  }

  @Override
  public void close() throws IOException {
    serverSocket.close();
    for (Socket socket : open) {
      socket.close();
    }
  }
}
