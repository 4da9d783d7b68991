package dev.crawler.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The content cap bounds memory, shown in a heap too small for the bodies read whole: a child
 * JVM with {@value #HEAP} crawls the gzip bomb (64 MB inflated), the 10 MB single-line page, the
 * endless chunked body, the 3 MB body, the 5,000-link page and the binary page. Read whole, the
 * bomb alone needs 128 MB (okio's buffer and the byte array it becomes).
 */
class SmallHeapCrawlTest {
  static final String HEAP = "-Xmx128m";

  @Test
  void theBigBodiesAreCrawledInASmallHeap() throws IOException, InterruptedException {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process child = new ProcessBuilder(java, HEAP, "--enable-native-access=ALL-UNNAMED",
        "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"), SmallHeapCrawl.class.getName())
        .redirectErrorStream(true).start();
    byte[] output;
    try (var in = child.getInputStream()) {
      output = in.readAllBytes();
    }
    assertThat(child.waitFor(90, TimeUnit.SECONDS)).isTrue();
    String text = new String(output, StandardCharsets.UTF_8);
    List<String> result = text.lines().filter(l -> l.startsWith("stop=")).toList();
    assertThat(child.exitValue()).as(text).isZero();
    assertThat(text).doesNotContain("OutOfMemoryError");
    // Five bodies past the cap (the single-line page twice: its /start link serves it again).
    assertThat(result).as(text).singleElement().satisfies(line -> assertThat(line).startsWith("stop=FINISHED truncated=5 "));
  }
}
