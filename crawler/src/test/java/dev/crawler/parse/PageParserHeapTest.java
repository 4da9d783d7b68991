package dev.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The streaming parse keeps the heap near the page's size. Measured in a child JVM whose heap
 * is capped, since a heap bound is the one thing a test cannot see from inside a big heap: the
 * probe holds the 10 MB body, and jsoup's tokenizer collects a 10 MB text run in a growing
 * StringBuilder before it becomes a text node, which sets the cap at about six times the page.
 * The same link page as a whole jsoup DOM needs more than 100 MB.
 */
class PageParserHeapTest {

  @Test
  void tenMegabyteSingleLinePagesParseInAHeapOfSixTimesTheirSize() throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process probe = new ProcessBuilder(java.toString(), "-Xmx64m", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), HugePageProbe.class.getName(), "links", "text", "attribute",
        "title")
        .redirectErrorStream(true)
        .start();
    String output;
    try (var out = probe.getInputStream()) {
      output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(probe.waitFor(60, TimeUnit.SECONDS)).as("probe finished").isTrue();
    assertThat(output).contains("links: 10000 links", "text: 0 links", "attribute: 0 links", "title: 0 links")
        .doesNotContain("OutOfMemoryError");
    assertThat(probe.exitValue()).as(output).isZero();
  }
}
