package dev.crawler.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.fetch.FetchResult;
import dev.crawler.fetch.FetchStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import okhttp3.Headers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.HttpRequest;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.Warcinfo;

class WarcRecorderTest {
  private static final Instant STARTED = Instant.parse("2025-05-01T12:00:00.123Z");
  private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2025-05-01T12:00:01Z"));
  private static final String SOFTWARE = "crawler/0.1.0";

  @TempDir Path dir;

  /** What the reader found in one record, read while the reader was on it. */
  record Read(String type, MessageVersion version, String targetUri, WarcRecord record, String httpHead, byte[] payload) {}

  @Test
  void anExchangeIsAWarcinfoThenAResponseAndARequestRecordThatPointAtEachOther() throws IOException {
    byte[] body = "<html><body>hello</body></html>".getBytes(StandardCharsets.UTF_8);
    try (WarcRecorder recorder = recorder(1 << 20)) {
      recorder.record(response("http://127.0.0.1:8080/a/b?q=1&r=%20x", body));
    }

    List<Read> records = readAll(onlyFile());
    assertThat(records).extracting(Read::type).containsExactly("warcinfo", "response", "request");
    assertThat(records).extracting(Read::version).containsOnly(MessageVersion.WARC_1_1);

    Warcinfo info = (Warcinfo) records.get(0).record();
    assertThat(info.filename()).contains(onlyFile().getFileName().toString());
    assertThat(info.date()).isEqualTo(CLOCK.instant());
    assertThat(records.get(0).payload()).asString(StandardCharsets.UTF_8)
        .contains("software: " + SOFTWARE + "\r\n", "format: WARC File Format 1.1\r\n");

    WarcResponse response = (WarcResponse) records.get(1).record();
    WarcRequest request = (WarcRequest) records.get(2).record();
    assertThat(response.target()).isEqualTo("http://127.0.0.1:8080/a/b?q=1&r=%20x");
    assertThat(response.date()).isEqualTo(STARTED);
    assertThat(response.headers().first("WARC-IP-Address")).contains("127.0.0.1");
    assertThat(response.truncated()).isEqualTo(WarcTruncationReason.NOT_TRUNCATED);
    assertThat(response.concurrentTo()).containsExactly(request.id());
    assertThat(request.concurrentTo()).containsExactly(response.id());
    assertThat(request.target()).isEqualTo(response.target());
    assertThat(request.headers().first("WARC-IP-Address")).contains("127.0.0.1");
    assertThat(response.headers().first("Content-Type")).contains("application/http;msgtype=response");
    assertThat(request.headers().first("Content-Type")).contains("application/http;msgtype=request");
  }

  @Test
  void theResponseRecordHoldsTheHeadersAsReceivedAndTheBodyAsKept() throws IOException {
    byte[] body = "<html>decompressed</html>".getBytes(StandardCharsets.UTF_8);
    try (WarcRecorder recorder = recorder(1 << 20)) {
      recorder.record(response("http://127.0.0.1:8080/", body));
    }

    Read response = readAll(onlyFile()).get(1);
    // Status line and header order as received; wire-form headers renamed; Content-Length of the kept body last.
    assertThat(response.httpHead()).isEqualTo("""
        HTTP/1.1 200 OK\r
        Date: Thu, 01 May 2025 12:00:00 GMT\r
        Content-Type: text/html; charset=utf-8\r
        X-Crawler-Content-Encoding: gzip\r
        X-Crawler-Transfer-Encoding: chunked\r
        Set-Cookie: a=1\r
        Set-Cookie: b=2\r
        Content-Length: 25\r
        \r
        """);
    assertThat(response.payload()).isEqualTo(body);
    WarcResponse record = (WarcResponse) response.record();
    assertThat(record.payloadDigest()).contains(new WarcDigest("sha1", sha1(body)));
    assertThat(record.blockDigest()).isPresent();
  }

  @Test
  void controlCharactersInTheStatusLineAndHeadersLeaveARecordReadersCanRead() throws IOException {
    FetchResult ok = response("http://127.0.0.1:8080/", new byte[10]);
    Headers odd = new Headers.Builder().addUnsafeNonAscii("X-Odd", "a\u0001b\u007fc").build();
    FetchResult result = new FetchResult(ok.url(), ok.status(), null, ok.startedAt(), ok.duration(), ok.remoteIp(),
        ok.requestHeaders(), "HTTP/1.1", 200, "O\u0001K", odd, "text/html", null, ok.body(), false, false,
        ok.wireBytes(), null, null);
    try (WarcRecorder recorder = recorder(1 << 20)) {
      recorder.record(result);
    }

    Read response = readAll(onlyFile()).get(1);
    assertThat(response.httpHead()).startsWith("HTTP/1.1 200 O K\r\nX-Odd: a b c\r\n");
    assertThat(response.payload()).isEqualTo(ok.body());
  }

  @Test
  void aBodyKeptAsSentKeepsItsContentEncoding() throws IOException {
    // The fetcher decodes gzip and deflate only; a br body is kept as sent, and the record must say
    // so, or a replay serves compressed bytes as text/html.
    byte[] compressed = {0x0b, 0x02, (byte) 0x80, 0x61, 0x62, 0x63, 0x03};
    try (WarcRecorder recorder = recorder(1 << 20)) {
      recorder.record(withCoding("br", compressed));
    }

    Read response = readAll(onlyFile()).get(1);
    assertThat(response.httpHead()).isEqualTo("""
        HTTP/1.1 200 OK\r
        Content-Type: text/html\r
        Content-Encoding: br\r
        X-Crawler-Content-Length: 7\r
        Content-Length: 7\r
        \r
        """);
    assertThat(response.payload()).isEqualTo(compressed);
  }

  @Test
  void aDeflateBodyIsRecordedDecodedWithItsCodingRenamedAsGzipIs() throws IOException {
    byte[] page = "<html>inflated</html>".getBytes(StandardCharsets.UTF_8);
    try (WarcRecorder recorder = recorder(1 << 20)) {
      recorder.record(withCoding("deflate", page));
    }

    Read response = readAll(onlyFile()).get(1);
    assertThat(response.httpHead()).isEqualTo("""
        HTTP/1.1 200 OK\r
        Content-Type: text/html\r
        X-Crawler-Content-Encoding: deflate\r
        X-Crawler-Content-Length: 7\r
        Content-Length: 21\r
        \r
        """);
    assertThat(response.payload()).isEqualTo(page);
  }

  /** A 200 sent with {@code Content-Encoding: coding} and 7 bytes on the wire, whose body is kept as {@code kept}. */
  private static FetchResult withCoding(String coding, byte[] kept) {
    FetchResult ok = response("http://127.0.0.1:8080/", kept);
    Headers received = new Headers.Builder().add("Content-Type", "text/html").add("Content-Encoding", coding)
        .add("Content-Length", "7").build();
    return new FetchResult(ok.url(), ok.status(), null, ok.startedAt(), ok.duration(), ok.remoteIp(),
        ok.requestHeaders(), "HTTP/1.1", 200, "OK", received, "text/html", null, kept, false, false, 7, null, null);
  }

  @Test
  void fileNamesHaveAsciiDigitsWhateverTheLocaleSoALeftoverIsFoundAndFinished() throws IOException {
    Locale saved = Locale.getDefault();
    Locale.setDefault(Locale.forLanguageTag("ar-SA"));   // formats with Arabic-Indic digits by default
    try {
      WarcRecorder killed = recorder(1 << 20);
      killed.record(response("http://127.0.0.1:8080/a", new byte[10]));   // then a kill: never closed
      try (Stream<Path> files = Files.list(dir)) {
        assertThat(files.map(f -> f.getFileName().toString())).singleElement().asString()
            .matches("crawl-\\d{14}-00000\\.warc\\.gz\\.open");
      }
      try (WarcRecorder resumed = recorder(1 << 20)) {
        resumed.record(response("http://127.0.0.1:8080/b", new byte[10]));
      }
      try (Stream<Path> files = Files.list(dir)) {
        assertThat(files.map(f -> f.getFileName().toString()).sorted())
            .containsExactly(onlyName(0), onlyName(1));
      }
    } finally {
      Locale.setDefault(saved);
    }
  }

  private static String onlyName(int sequence) {
    return "crawl-" + DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC).format(CLOCK.instant())
        + "-0000" + sequence + ".warc.gz";
  }

  /**
   * Interrupts landing while a record is encoded: jwarc encoded through channels that an
   * interrupt closes, the broken encoder went back to the pool, and every later record that
   * borrowed it failed; the first failure also stopped the crawl as if the disk were full.
   */
  @Test
  void interruptsWhileEncodingCostNoRecord() throws Exception {
    int records = 500;
    Thread worker = Thread.currentThread();
    AtomicBoolean spamming = new AtomicBoolean(true);
    Thread spammer = Thread.ofPlatform().start(() -> {
      while (spamming.get()) {
        worker.interrupt();
      }
    });
    try (WarcRecorder recorder = recorder(1L << 30)) {
      for (int i = 0; i < records; i++) {
        recorder.record(response("http://127.0.0.1:8080/" + i, new byte[20_000]));
      }
    } finally {
      spamming.set(false);
      while (spammer.isAlive()) {   // not join(): the spammer's last interrupt would end it early
        Thread.interrupted();
        Thread.onSpinWait();
      }
      Thread.interrupted();
    }
    assertThat(readAll(onlyFile())).filteredOn(r -> r.type().equals("response")).hasSize(records);
  }

  /** A stop interrupts the workers; one interrupted while it writes must not close the file under the others. */
  @Test
  void aWriterInterruptedWhileRecordingLeavesTheFileOpenForTheOthers() throws IOException {
    try (WarcRecorder recorder = recorder(1 << 20)) {
      Thread.currentThread().interrupt();
      try {
        recorder.record(response("http://127.0.0.1:8080/interrupted", new byte[100]));
      } finally {
        assertThat(Thread.interrupted()).as("the interrupt is left for the caller").isTrue();
      }
      recorder.record(response("http://127.0.0.1:8080/next", new byte[100]));
    }
    assertThat(readAll(onlyFile())).extracting(Read::type)
        .containsExactly("warcinfo", "response", "request", "response", "request");
  }

  @Test
  void theRequestRecordIsRebuiltFromTheHeadersSent() throws IOException {
    try (WarcRecorder recorder = recorder(1 << 20)) {
      recorder.record(response("http://127.0.0.1:8080/a/b?q=1", new byte[0]));
    }

    Read request = readAll(onlyFile()).get(2);
    // The fetch's headers had no Host: it is added from the URL, before the headers sent.
    assertThat(request.httpHead()).isEqualTo("""
        GET /a/b?q=1 HTTP/1.1\r
        Host: 127.0.0.1:8080\r
        User-Agent: crawler/0.1.0 (+http://example.test/bot)\r
        Accept-Encoding: gzip\r
        \r
        """);
  }

  @Test
  void everyBlockDigestMatchesTheBlockAsWritten() throws IOException {
    try (WarcRecorder recorder = recorder(1 << 20)) {
      recorder.record(response("http://127.0.0.1:8080/a", "<p>one</p>".getBytes(StandardCharsets.UTF_8)));
      recorder.record(response("http://127.0.0.1:8080/b", new byte[0]));
    }

    int checked = 0;
    try (WarcReader reader = new WarcReader(onlyFile())) {
      reader.calculateBlockDigest();
      for (WarcRecord record : reader) {
        if (record.blockDigest().isPresent()) {
          assertThat(record.calculatedBlockDigest()).as(record.type()).isEqualTo(record.blockDigest());
          checked++;
        }
      }
    }
    assertThat(checked).isEqualTo(4);
  }

  @Test
  void aBodyCutAtTheCapIsMarkedTruncatedByLength() throws IOException {
    try (WarcRecorder recorder = recorder(1 << 20)) {
      recorder.record(with(response("http://127.0.0.1:8080/big", new byte[100]), true, false));
      recorder.record(with(response("http://127.0.0.1:8080/video", new byte[0]), false, true));
    }

    List<Read> records = readAll(onlyFile());
    WarcResponse cut = (WarcResponse) records.get(1).record();
    assertThat(cut.truncated()).isEqualTo(WarcTruncationReason.LENGTH);
    assertThat(records.get(1).payload()).hasSize(100);
    WarcResponse skipped = (WarcResponse) records.get(3).record();
    assertThat(skipped.truncated()).isEqualTo(WarcTruncationReason.UNSPECIFIED);
    assertThat(skipped.payloadDigest()).isEmpty();
  }

  @Test
  void anHttp2ExchangeIsWrittenAsHttp11AndNamesItsProtocol() throws IOException {
    try (WarcRecorder recorder = recorder(1 << 20)) {
      recorder.record(protocol(response("https://127.0.0.1:8443/", new byte[1]), "HTTP/2"));
    }

    List<Read> records = readAll(onlyFile());
    assertThat(records.get(1).httpHead()).startsWith("HTTP/1.1 200 OK\r\n");
    assertThat(records.get(1).record().headers().first("WARC-Protocol")).contains("h2");
    assertThat(records.get(2).httpHead()).startsWith("GET / HTTP/1.1\r\nHost: 127.0.0.1:8443\r\n");
  }

  @Test
  void fetchesWithoutAResponseWriteNothing() throws IOException {
    try (WarcRecorder recorder = recorder(1 << 20)) {
      recorder.record(failure("http://127.0.0.1:1/", FetchStatus.CONNECTION_REFUSED));
      recorder.record(failure("http://127.0.0.1:8080/slow", FetchStatus.TIMEOUT));
    }
    assertThat(files()).isEmpty();
  }

  @Test
  void aResponseWhoseBodyFailedIsRecordedAsTruncatedWithWhy() throws IOException {
    FetchResult ok = response("http://127.0.0.1:8080/", new byte[10]);
    try (WarcRecorder recorder = recorder(1 << 20)) {
      recorder.record(failedBody(ok, "http://127.0.0.1:8080/slow", FetchStatus.TIMEOUT));
      recorder.record(failedBody(ok, "http://127.0.0.1:8080/reset", FetchStatus.CONNECTION_RESET));
      recorder.record(failedBody(ok, "http://127.0.0.1:8080/bad-gzip", FetchStatus.PROTOCOL_ERROR));
    }
    assertThat(readAll(onlyFile())).filteredOn(r -> r.type().equals("response"))
        .extracting(r -> r.targetUri() + " " + ((WarcResponse) r.record()).truncated())
        .containsExactly("http://127.0.0.1:8080/slow TIME", "http://127.0.0.1:8080/reset DISCONNECT",
            "http://127.0.0.1:8080/bad-gzip UNSPECIFIED");
  }

  private static FetchResult failedBody(FetchResult r, String url, FetchStatus status) {
    return new FetchResult(url, status, "failed part way", r.startedAt(), r.duration(), r.remoteIp(),
        r.requestHeaders(), r.protocol(), r.httpStatus(), r.reasonPhrase(), r.responseHeaders(), r.contentType(),
        r.charset(), r.body(), true, false, r.wireBytes(), r.location(), r.retryAfter());
  }

  @Test
  void theFileIsNamedOpenUntilTheRecorderCloses() throws IOException {
    WarcRecorder recorder = recorder(1 << 20);
    recorder.record(response("http://127.0.0.1:8080/", new byte[10]));
    assertThat(files()).containsExactly("crawl-20250501120001-00000.warc.gz.open");

    recorder.close();
    recorder.close();
    assertThat(files()).containsExactly("crawl-20250501120001-00000.warc.gz");
  }

  @Test
  void aFileRotatesBeforeAnExchangeWouldTakeItPastTheMaximumSize() throws IOException {
    Random random = new Random(42);
    List<byte[]> bodies = new ArrayList<>();
    try (WarcRecorder recorder = recorder(5_000)) {
      for (int i = 0; i < 10; i++) {
        byte[] body = new byte[1500]; // random bytes: gzip cannot shrink them
        random.nextBytes(body);
        bodies.add(body);
        recorder.record(response("http://127.0.0.1:8080/" + i, body));
      }
    }

    List<String> names = files();
    assertThat(names).hasSizeGreaterThan(2).allMatch(n -> n.matches("crawl-20250501120001-\\d{5}\\.warc\\.gz"));
    assertThat(names.get(0)).endsWith("-00000.warc.gz");
    assertThat(names.get(names.size() - 1)).endsWith(String.format("-%05d.warc.gz", names.size() - 1));
    List<byte[]> payloads = new ArrayList<>();
    for (String name : names) {
      assertThat(Files.size(dir.resolve(name))).isLessThanOrEqualTo(5_000);
      List<Read> records = readAll(dir.resolve(name));
      assertThat(records.get(0).type()).isEqualTo("warcinfo");
      records.stream().filter(r -> r.type().equals("response")).forEach(r -> payloads.add(r.payload()));
    }
    assertThat(payloads).containsExactlyElementsOf(bodies);
  }

  @Test
  void anExchangeBiggerThanTheMaximumSizeStillGetsAFileOfItsOwn() throws IOException {
    byte[] big = new byte[20_000];
    new Random(1).nextBytes(big);
    try (WarcRecorder recorder = recorder(5_000)) {
      recorder.record(response("http://127.0.0.1:8080/small", new byte[10]));
      recorder.record(response("http://127.0.0.1:8080/big", big));
      recorder.record(response("http://127.0.0.1:8080/small2", new byte[10]));
    }
    assertThat(files()).hasSize(3);
    assertThat(readAll(dir.resolve(files().get(1))).get(1).payload()).isEqualTo(big);
  }

  @Test
  void aNewRecorderContinuesTheSequenceOfTheFilesAlreadyThere() throws IOException {
    Files.createFile(dir.resolve("crawl-20250430000000-00007.warc.gz"));
    Files.createFile(dir.resolve("crawl-20250430000000-00008.warc.gz.open")); // left by kill -9
    Files.createFile(dir.resolve("other-20250430000000-00042.warc.gz"));
    try (WarcRecorder recorder = recorder(1 << 20)) {
      recorder.record(response("http://127.0.0.1:8080/", new byte[10]));
    }
    assertThat(files()).contains("crawl-20250501120001-00009.warc.gz");
  }

  /**
   * A killed crawl leaves its last file .open, perhaps with a record cut in half. Its pages are
   * never fetched again, so the next recorder finishes it: cut after its last whole record, named.
   */
  @Test
  void aFileLeftOpenByAKillIsCutAfterItsLastWholeRecordAndNamed() throws IOException {
    try (WarcRecorder recorder = recorder(1 << 20)) {
      recorder.record(response("http://127.0.0.1:8080/one", new byte[3000]));
      recorder.record(response("http://127.0.0.1:8080/two", new byte[3000]));
    }
    Path whole = onlyFile();
    byte[] bytes = Files.readAllBytes(whole);
    Path killed = dir.resolve("crawl-20250430000000-00004.warc.gz.open");
    // The kill cut the next record: half of a member copied from the file's own start.
    byte[] cut = new byte[bytes.length + 200];
    System.arraycopy(bytes, 0, cut, 0, bytes.length);
    System.arraycopy(bytes, 0, cut, bytes.length, 200);
    Files.write(killed, cut);
    Path emptyKill = dir.resolve("crawl-20250430000000-00005.warc.gz.open");
    Files.write(emptyKill, java.util.Arrays.copyOf(bytes, 30));   // not even one whole record
    Files.delete(whole);

    try (WarcRecorder recorder = recorder(1 << 20)) {
      assertThat(files()).containsExactly("crawl-20250430000000-00004.warc.gz");
      Path finished = dir.resolve("crawl-20250430000000-00004.warc.gz");
      assertThat(Files.size(finished)).isEqualTo(bytes.length);
      assertThat(readAll(finished)).extracting(Read::type)
          .containsExactly("warcinfo", "response", "request", "response", "request");
    }
  }

  @Test
  void aFullDiskIsThrownNamingTheFileAndStopsEveryLaterRecord() throws IOException {
    WarcFile.Opener fillsAfter3000Bytes = path -> new FullDisk(WarcFile.Opener.FILES.open(path), 3000);
    WarcRecorder recorder = new WarcRecorder(dir, "crawl", 1 << 20, SOFTWARE, fillsAfter3000Bytes, CLOCK);
    byte[] body = new byte[1000];
    new Random(7).nextBytes(body);

    assertThatThrownBy(() -> {
      for (int i = 0; i < 10; i++) {
        recorder.record(response("http://127.0.0.1:8080/" + i, body));
      }
    }).isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("crawl-20250501120001-00000.warc.gz.open")
        .hasMessageContaining("No space left on device");
    assertThatThrownBy(() -> recorder.record(response("http://127.0.0.1:8080/later", body)))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("crawl-20250501120001-00000.warc.gz.open");
    recorder.close();

    // The damaged file keeps its .open name; the records before the failure are readable.
    assertThat(files()).containsExactly("crawl-20250501120001-00000.warc.gz.open");
    List<String> types = new ArrayList<>();
    try (WarcReader reader = new WarcReader(dir.resolve(files().get(0)))) {
      reader.onWarning(warning -> {});
      for (WarcRecord record : reader) {
        types.add(record.type());
      }
    } catch (IOException | UncheckedIOException expected) {
      // The last record is cut; what came before it was read.
    }
    assertThat(types).startsWith("warcinfo", "response", "request");
  }

  @Test
  void concurrentWorkersKeepEachExchangeTogether() throws Exception {
    int threads = 8;
    int perThread = 50;
    try (WarcRecorder recorder = recorder(64 * 1024)) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          for (int i = 0; i < perThread; i++) {
            recorder.record(response("http://127.0.0.1:8080/" + thread + "/" + i,
                ("page " + thread + "/" + i).repeat(50).getBytes(StandardCharsets.UTF_8)));
          }
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      pool.shutdown();
    }

    int exchanges = 0;
    for (String name : files()) {
      List<Read> records = readAll(dir.resolve(name));
      assertThat(records.get(0).type()).isEqualTo("warcinfo");
      for (int i = 1; i < records.size(); i += 2) {
        Read response = records.get(i);
        Read request = records.get(i + 1);
        assertThat(response.type()).isEqualTo("response");
        assertThat(request.type()).isEqualTo("request");
        assertThat(request.targetUri()).isEqualTo(response.targetUri());
        String path = response.targetUri().substring("http://127.0.0.1:8080/".length());
        assertThat(new String(response.payload(), StandardCharsets.UTF_8)).isEqualTo(("page " + path).repeat(50));
        exchanges++;
      }
    }
    assertThat(exchanges).isEqualTo(threads * perThread);
  }

  @Test
  void theGzipLevelTradesSizeForSpeedAndEveryLevelReadsBackTheSame() throws IOException {
    // Text like a page's: words from a small vocabulary, so that the levels differ in size.
    Random random = new Random(3);
    String[] words = {"crawler", "frontier", "politeness", "robots", "sitemap", "queue", "host", "page"};
    StringBuilder text = new StringBuilder();
    while (text.length() < 200_000) {
      text.append(words[random.nextInt(words.length)]).append(random.nextInt(100)).append(' ');
    }
    byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
    long[] sizes = new long[10];
    for (int level : new int[] {1, 6, 9}) {
      Path levelDir = dir.resolve("level-" + level);
      try (WarcRecorder recorder = new WarcRecorder(levelDir, "crawl", 1 << 30, level, SOFTWARE,
          WarcFile.Opener.FILES, CLOCK)) {
        recorder.record(response("http://127.0.0.1:8080/page", body));
      }
      Path file;
      try (Stream<Path> files = Files.list(levelDir)) {
        file = files.findFirst().orElseThrow();
      }
      sizes[level] = Files.size(file);
      assertThat(readAll(file).get(1).payload()).as("level %s", level).isEqualTo(body);
    }
    assertThat(sizes[1]).isGreaterThan(sizes[6]);
    assertThat(sizes[6]).isGreaterThanOrEqualTo(sizes[9]);
    assertThatThrownBy(() -> new WarcRecorder(dir, "crawl", 1 << 20, 0, SOFTWARE))
        .hasMessage("WARC gzip level (0) must be from 1 to 9");
  }

  // ---- helpers

  private WarcRecorder recorder(long maxFileBytes) {
    return new WarcRecorder(dir, "crawl", maxFileBytes, SOFTWARE, WarcFile.Opener.FILES, CLOCK);
  }

  static FetchResult response(String url, byte[] body) {
    Headers sent = Headers.of("User-Agent", "crawler/0.1.0 (+http://example.test/bot)", "Accept-Encoding", "gzip");
    Headers received = new Headers.Builder()
        .add("Date", "Thu, 01 May 2025 12:00:00 GMT")
        .add("Content-Type", "text/html; charset=utf-8")
        .add("Content-Encoding", "gzip")
        .add("Transfer-Encoding", "chunked")
        .add("Set-Cookie", "a=1")
        .add("Set-Cookie", "b=2")
        .build();
    return new FetchResult(url, FetchStatus.RESPONSE, null, STARTED, Duration.ofMillis(95), "127.0.0.1", sent,
        "HTTP/1.1", 200, "OK", received, "text/html", StandardCharsets.UTF_8, body, false, false, body.length / 3,
        null, null);
  }

  static FetchResult failure(String url, FetchStatus status) {
    return new FetchResult(url, status, "it failed", STARTED, Duration.ofMillis(5), null, Headers.of(), null, 0, "",
        Headers.of(), null, null, new byte[0], false, false, 0, null, null);
  }

  private static FetchResult with(FetchResult r, boolean truncated, boolean contentSkipped) {
    return new FetchResult(r.url(), r.status(), r.cause(), r.startedAt(), r.duration(), r.remoteIp(),
        r.requestHeaders(), r.protocol(), r.httpStatus(), r.reasonPhrase(), r.responseHeaders(), r.contentType(),
        r.charset(), r.body(), truncated, contentSkipped, r.wireBytes(), r.location(), r.retryAfter());
  }

  private static FetchResult protocol(FetchResult r, String protocol) {
    return new FetchResult(r.url(), r.status(), r.cause(), r.startedAt(), r.duration(), r.remoteIp(),
        r.requestHeaders(), protocol, r.httpStatus(), r.reasonPhrase(), r.responseHeaders(), r.contentType(),
        r.charset(), r.body(), r.truncated(), r.contentSkipped(), r.wireBytes(), r.location(), r.retryAfter());
  }

  private List<String> files() throws IOException {
    try (Stream<Path> list = Files.list(dir)) {
      return list.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private Path onlyFile() throws IOException {
    List<String> names = files();
    assertThat(names).hasSize(1);
    return dir.resolve(names.get(0));
  }

  static List<Read> readAll(Path file) throws IOException {
    List<Read> out = new ArrayList<>();
    try (WarcReader reader = new WarcReader(file)) {
      for (WarcRecord record : reader) {
        String head = null;
        byte[] payload = null;
        if (record instanceof WarcResponse response) {
          HttpResponse http = response.http();
          head = new String(http.serializeHeader(), StandardCharsets.UTF_8);
          payload = http.body().stream().readAllBytes();
        } else if (record instanceof WarcRequest request) {
          HttpRequest http = request.http();
          head = new String(http.serializeHeader(), StandardCharsets.UTF_8);
          payload = http.body().stream().readAllBytes();
        } else if (record instanceof Warcinfo info) {
          payload = info.body().stream().readAllBytes();
        }
        String target = record.headers().first("WARC-Target-URI").orElse(null);
        out.add(new Read(record.type(), record.version(), target, record, head, payload));
      }
    }
    return out;
  }

  private static byte[] sha1(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-1").digest(bytes);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /** A channel on a disk that fills up after a number of bytes. */
  private static final class FullDisk implements WritableByteChannel {
    private final WritableByteChannel delegate;
    private long room;

    FullDisk(WritableByteChannel delegate, long room) {
      this.delegate = delegate;
      this.room = room;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      if (src.remaining() > room) {
        ByteBuffer part = src.slice().limit((int) room);
        delegate.write(part);
        src.position(src.position() + (int) room);
        room = 0;
        throw new IOException("No space left on device");
      }
      room -= src.remaining();
      return delegate.write(src);
    }

    @Override
    public boolean isOpen() {
      return delegate.isOpen();
    }

    @Override
    public void close() throws IOException {
      delegate.close();
    }
  }
}
