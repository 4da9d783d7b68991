package dev.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A server that keeps its connections alive lies in its answer to /first; every other path gets an
 * honest page that names its path. The pages after the lie must be their own answers, never bytes
 * the lie left on the connection.
 */
class KeptAliveConnectionTest {
  private static final String SMUGGLED = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 35\r\n\r\n"
      + "<a href=/smuggled-link>smuggled</a>";

  private Fetcher fetcher;

  @AfterEach
  void everyConnectionIsGivenBack() {
    if (fetcher != null) {
      assertThat(fetcher.connectionsInUse()).as("connections still held by a call").isZero();
      fetcher.close();
    }
  }

  private Fetcher fetcher() {
    fetcher = new Fetcher(new FetcherOptions("testbot/1.0", Duration.ofSeconds(2), Duration.ofSeconds(2),
        Duration.ofSeconds(5), 1 << 20, 4, List.of("text/html"), true, NameToLoopbackDns.loopback()));
    return fetcher;
  }

  /** Answers /first with {@code lie}, any other path with its own page, on one connection as long as the client keeps it. */
  private static ScriptedServer keepAliveServer(String lie, CountDownLatch afterLie, String late) throws IOException {
    return new ScriptedServer((socket, in, out) -> {
      while (true) {
        String head = ScriptedServer.readRequestHead(in);
        if (head.isEmpty()) {
          return;   // the client closed the connection
        }
        String path = head.split(" ")[1];
        if (path.equals("/first")) {
          ScriptedServer.write(out, lie);
          if (late != null) {
            sleep(200);   // long after the response was read
            ScriptedServer.write(out, late);
          }
          afterLie.countDown();
        } else {
          ScriptedServer.write(out, page(path));
        }
      }
    });
  }

  private static String page(String path) {
    String body = "<p>page " + path;
    return "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
  }

  private static String text(FetchResult result) {
    return new String(result.body(), StandardCharsets.ISO_8859_1);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(delimiter = '|', textBlock = """
      # the lie                                       | what /first sends (\\r\\n as written)                                                                | status of /first | body of /first
      a 204 that carries a body                       | HTTP/1.1 204 No Content\\r\\n\\r\\n<html>leftover body of a 204</html>                                | RESPONSE         | ''
      a 204 with a Content-Length and a body          | HTTP/1.1 204 No Content\\r\\nContent-Length: 35\\r\\n\\r\\n<html>leftover body of a 204</html>         | PROTOCOL_ERROR   | ''
      a body longer than its Content-Length           | HTTP/1.1 200 OK\\r\\nContent-Type: text/html\\r\\nContent-Length: 10\\r\\n\\r\\n<html>0123456789 the rest</html> | RESPONSE | <html>0123
      two Content-Lengths, the longer last            | HTTP/1.1 200 OK\\r\\nContent-Type: text/html\\r\\nContent-Length: 10\\r\\nContent-Length: 30\\r\\n\\r\\n<html>0123456789 the rest</html> | PROTOCOL_ERROR | ''
      two Content-Lengths, the shorter last           | HTTP/1.1 200 OK\\r\\nContent-Type: text/html\\r\\nContent-Length: 30\\r\\nContent-Length: 10\\r\\n\\r\\n<html>0123456789 the rest</html> | PROTOCOL_ERROR | ''
      a whole response smuggled after the body        | HTTP/1.1 200 OK\\r\\nContent-Type: text/html\\r\\nContent-Length: 8\\r\\n\\r\\n<p>first{SMUGGLED}                | RESPONSE         | <p>first
      a response smuggled after a chunked body        | HTTP/1.1 200 OK\\r\\nContent-Type: text/html\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n8\\r\\n<p>first\\r\\n0\\r\\n\\r\\n{SMUGGLED} | RESPONSE | <p>first
      chunked beside a Content-Length, then a response | HTTP/1.1 200 OK\\r\\nContent-Type: text/html\\r\\nTransfer-Encoding: chunked\\r\\nContent-Length: 3\\r\\n\\r\\n8\\r\\n<p>first\\r\\n0\\r\\n\\r\\n{SMUGGLED} | RESPONSE | <p>first
      """)
  void thePagesAfterALieAreTheirOwnAnswers(String lie, String script, FetchStatus firstStatus, String firstBody)
      throws IOException {
    String bytes = script.replace("\\r", "\r").replace("\\n", "\n").replace("{SMUGGLED}", SMUGGLED);
    try (ScriptedServer server = keepAliveServer(bytes, new CountDownLatch(1), null)) {
      Fetcher fetcher = fetcher();

      FetchResult first = fetcher.fetch(server.url("/first"));
      FetchResult next = fetcher.fetch(server.url("/next"));
      FetchResult after = fetcher.fetch(server.url("/after"));

      assertThat(first.status()).as(first.cause()).isEqualTo(firstStatus);
      assertThat(text(first)).isEqualTo(firstBody);
      assertThat(next.status()).as(next.cause()).isEqualTo(FetchStatus.RESPONSE);
      assertThat(text(next)).isEqualTo("<p>page /next");
      assertThat(text(after)).isEqualTo("<p>page /after");
      // The lie's connection was closed, the next one kept for both pages.
      assertThat(server.connections()).isEqualTo(2);
    }
  }

  @Test
  void anHonestConnectionServesEveryPage() throws IOException {
    try (ScriptedServer server = keepAliveServer(page("/first"), new CountDownLatch(1), null)) {
      Fetcher fetcher = fetcher();

      for (String path : List.of("/first", "/next", "/after")) {
        assertThat(text(fetcher.fetch(server.url(path)))).isEqualTo("<p>page " + path);
      }
      assertThat(server.connections()).isEqualTo(1);
    }
  }

  @Test
  void bytesThatArriveAfterAResponseAreNotTheNextRequestsAnswer() throws Exception {
    CountDownLatch lateBytesSent = new CountDownLatch(1);
    try (ScriptedServer server = keepAliveServer(page("/first"), lateBytesSent, SMUGGLED)) {
      Fetcher fetcher = fetcher();

      assertThat(text(fetcher.fetch(server.url("/first")))).isEqualTo("<p>page /first");
      assertThat(lateBytesSent.await(5, TimeUnit.SECONDS)).isTrue();
      FetchResult next = fetcher.fetch(server.url("/next"));

      assertThat(next.status()).as(next.cause()).isEqualTo(FetchStatus.RESPONSE);
      assertThat(text(next)).isEqualTo("<p>page /next");
      assertThat(server.connections()).isEqualTo(2);
    }
  }

  @Test
  void okHttpsReadAheadBufferIsVisibleInThisVersion() {
    // Without it every HTTP/1 connection would be closed after one response: correct, but slow.
    assertThat(UnreadBytes.readAheadVisible()).isTrue();
  }

  private static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
  }
}
