package dev.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queues URLs over 100,000 hosts in a child JVM whose heap is capped at 256 MB, so the limit
 * is real: an OutOfMemoryError fails the child and the test. 1 million URLs by default (about
 * 15 s here); {@code -Dfrontier.big=true} runs the 10 million of the issue (about 90 s).
 */
class FrontierMemoryTest {
  @TempDir Path dir;

  @Test
  void manyUrlsOverManyHostsFitInA256MbHeap() throws Exception {
    long urls = Boolean.getBoolean("frontier.big") ? 10_000_000 : 1_000_000;
    String java = ProcessHandle.current().info().command().orElseThrow();
    Process child = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-cp",
        System.getProperty("java.class.path"), FrontierBench.class.getName(), "--urls", Long.toString(urls),
        "--hosts", "100000", "--ops", "20000", "--threads", "2", "--dir", dir.resolve("frontier").toString())
        .redirectErrorStream(true).start();
    Map<String, String> figures = new HashMap<>();
    StringBuilder output = new StringBuilder();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        output.append(line).append('\n');
        String[] parts = line.split(" ", 2);
        if (parts.length == 2) {
          figures.put(parts[0], parts[1]);
        }
      }
    }
    assertThat(child.waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertThat(child.exitValue()).as("child output:\n%s", output).isZero();
    assertThat(figures.get("heap_max_mb")).isEqualTo("256");
    assertThat(Long.parseLong(figures.get("queued_urls"))).isEqualTo(urls);
    assertThat(Long.parseLong(figures.get("hosts"))).isEqualTo(100_000);
    assertThat(Long.parseLong(figures.get("next_complete_ops"))).isEqualTo(20_000);
    // Flat, not merely below the cap: the working set, not the URLs, sets the heap.
    assertThat(Long.parseLong(figures.get("heap_used_peak_mb"))).as("heap after GC, MB").isLessThan(128);
  }
}
