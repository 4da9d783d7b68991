package dev.crawler.parse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Parses 10 MB single-line pages, one after another, in a JVM started with a small heap by
 * {@link PageParserHeapTest}: a page that needs more heap ends this process with an
 * OutOfMemoryError. Prints one line per page.
 */
final class HugePageProbe {
  static final int SIZE = 10_000_000;

  public static void main(String[] args) {
    PageParser parser = new PageParser(true, 10_000);
    for (String kind : args) {
      ParsedPage page = parser.parse("http://example.com/", page(kind), null);
      System.out.println(kind + ": " + page.links().size() + " links");
    }
  }

  /** One line of markup: a link after another, one text node, or one giant attribute. */
  static byte[] page(String kind) {
    byte[] body = new byte[SIZE];
    byte[] start = "<html><body>".getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(start, 0, body, 0, start.length);
    int at = start.length;
    switch (kind) {
      case "links" -> fillWithLinks(body, at);
      case "text" -> Arrays.fill(body, at, SIZE, (byte) 'x');
      case "title" -> {
        // An unclosed <title>: the rest of the page is its raw text, links and all.
        byte[] open = "<title>".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(open, 0, body, at, open.length);
        fillWithLinks(body, at + open.length);
      }
      case "attribute" -> {
        byte[] open = "<a href=\"/".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(open, 0, body, at, open.length);
        Arrays.fill(body, at + open.length, SIZE, (byte) 'x');
      }
      default -> throw new IllegalArgumentException("Unknown page kind: " + kind);
    }
    return body;
  }

  /** Links, one after another, from {@code at} to the end, then spaces. */
  private static void fillWithLinks(byte[] body, int at) {
    for (int i = 0; ; i++) {
      byte[] link = ("<a href=\"/p/" + i + "\">x</a>").getBytes(StandardCharsets.US_ASCII);
      if (at + link.length > SIZE) {
        break;
      }
      System.arraycopy(link, 0, body, at, link.length);
      at += link.length;
    }
    Arrays.fill(body, at, SIZE, (byte) ' ');
  }

  private HugePageProbe() {}
}
