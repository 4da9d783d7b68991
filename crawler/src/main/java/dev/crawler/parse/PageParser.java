package dev.crawler.parse;

import static com.google.common.base.Preconditions.checkArgument;

import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.Charset;
import java.util.Iterator;
import java.util.Objects;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.parser.Parser;
import org.jsoup.parser.StreamParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads an HTML page for the crawl: its links ({@code a}, {@code area}, {@code frame},
 * {@code iframe} and the canonical {@code link}), its meta robots and its title. Thread-safe and
 * stateless: one instance serves all workers.
 *
 * <p>The parse cost sets the crawl's speed, so the page is read in one streaming pass: jsoup's
 * {@link StreamParser} hands over each element as it completes, the element is read and then
 * removed from the tree. Memory stays near the body's own size whatever the page holds (a
 * 10 MB page of links does not become a 10 MB-page DOM). The price: a {@code <base href>} that
 * comes after links (it belongs in {@code <head>}) applies only to the links after it.
 *
 * <p>Web input never throws: bytes that are not valid in the charset become U+FFFD, markup
 * that does not parse is read as browsers read it, and if jsoup fails anyway the page keeps
 * what was read up to that point.
 */
public final class PageParser {
  private static final Logger log = LoggerFactory.getLogger(PageParser.class);

  private final boolean obeyRelNofollow;
  private final int maxLinksPerPage;

  /**
   * @param obeyRelNofollow skip links marked {@code rel=nofollow} (meta robots nofollow is always obeyed)
   * @param maxLinksPerPage links kept per page, the first ones in document order
   */
  public PageParser(boolean obeyRelNofollow, int maxLinksPerPage) {
    checkArgument(maxLinksPerPage >= 0, "maxLinksPerPage (%s) must be >= 0", maxLinksPerPage);
    this.obeyRelNofollow = obeyRelNofollow;
    this.maxLinksPerPage = maxLinksPerPage;
  }

  /**
   * @param pageUrl the page's URL, which relative links resolve against (after a redirect, the
   *     final URL)
   * @param body the body as received (decompressed), possibly cut at the content cap
   * @param headerCharset the charset the Content-Type header names, null if none; it wins over
   *     the page's own meta charset, a byte order mark wins over both
   */
  public ParsedPage parse(String pageUrl, byte[] body, Charset headerCharset) {
    Objects.requireNonNull(pageUrl, "pageUrl");
    Objects.requireNonNull(body, "body");
    PageCharset.Decision charset = PageCharset.decide(body, headerCharset);
    PageFacts facts = new PageFacts(pageUrl, obeyRelNofollow, maxLinksPerPage);
    // InputStreamReader replaces malformed input with U+FFFD instead of throwing.
    Reader text = new InputStreamReader(
        new ByteArrayInputStream(body, charset.textStart(), body.length - charset.textStart()), charset.charset());
    try (StreamParser streamer = new StreamParser(Parser.htmlParser()).parse(text, pageUrl)) {
      Iterator<Element> completed = streamer.iterator();
      while (completed.hasNext()) {
        Element element = completed.next();
        seeSkipped(element, facts);
        facts.see(element);
        dropReadText(element);
        element.remove(); // read: let it go, so the tree never holds more than the open elements
      }
    } catch (RuntimeException e) {
      log.debug("Stopped parsing {} early, keeping what was read: {}", pageUrl, e.toString());
    }
    return facts.result(charset.charset());
  }

  /**
   * Removes the text and comments before {@code element} in its parent: read or not needed, they
   * would pile up between removed elements. jsoup re-indexes a parent's children after each
   * removal, so a parent holding thousands of spaces between links would make a page's parse
   * cost grow with the square of its links. Elements there are kept for {@link #seeSkipped}.
   */
  private static void dropReadText(Element element) {
    Node parent = element.parentNode();
    if (parent == null) {
      return;
    }
    for (int i = 0; i < parent.childNodeSize(); ) {
      Node child = parent.childNode(i);
      if (child == element) {
        return;
      }
      if (child instanceof Element) {
        i++;
      } else {
        child.remove();
      }
    }
  }

  /**
   * Sees the elements under {@code element} that the stream never handed over. Every element it
   * hands over is removed at once, so any element still attached below a completed one was
   * skipped: jsoup 1.24.1's StreamParser does not emit foster-parented elements (an {@code <a>}
   * misplaced inside a {@code <table>}, common in table layouts), and they end up before the
   * table, under the table's parent. They are seen when that parent completes, a little later
   * than their place in the page.
   */
  private static void seeSkipped(Element element, PageFacts facts) {
    for (int i = 0; i < element.childNodeSize(); i++) {
      if (element.childNode(i) instanceof Element skipped) {
        seeSkipped(skipped, facts);
        facts.see(skipped);
      }
    }
  }
}
