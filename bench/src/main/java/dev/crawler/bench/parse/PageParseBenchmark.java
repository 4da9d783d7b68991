package dev.crawler.bench.parse;

import dev.crawler.parse.PageParser;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of reading a page's links as its link count grows: the crawler's streaming
 * {@link PageParser} against jsoup's whole-tree parse and {@code select("a[href]")}, the peer.
 * The page is an index page's shape, one parent holding every link with text between them,
 * where a parse whose cost grows faster than the links shows at once. Run:
 * <pre>
 *   java -jar bench/target/benchmarks.jar PageParseBenchmark
 * </pre>
 * Read the score per link (divide by {@code links}): flat across the sizes means linear.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class PageParseBenchmark {
  @Param({"1000", "8000", "32000"})
  public int links;

  private final PageParser parser = new PageParser(true, Integer.MAX_VALUE);
  private byte[] page;
  private String text;

  @Setup
  public void page() {
    StringBuilder html = new StringBuilder("<!doctype html><html><head><title>Index</title></head><body><dl>\n");
    for (int i = 0; i < links; i++) {
      html.append("<dt><a href=\"/library/module").append(i).append(".html#entry\">entry ").append(i)
          .append("</a> (module ").append(i % 97).append(")</dt>\n");
    }
    text = html.append("</dl></body></html>\n").toString();
    page = text.getBytes(StandardCharsets.UTF_8);
  }

  @Benchmark
  public int streaming() {
    return parser.parse("http://docs.example/genindex.html", page, StandardCharsets.UTF_8).links().size();
  }

  @Benchmark
  public int jsoupDocument() {
    Document doc = Jsoup.parse(text, "http://docs.example/genindex.html");
    return doc.select("a[href]").size();
  }
}
