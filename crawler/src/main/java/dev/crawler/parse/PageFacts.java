package dev.crawler.parse;

import java.nio.charset.Charset;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.parser.Parser;

/**
 * What one page has said so far, gathered element by element as the parser completes them: the
 * single pass over the document. One instance per page, used by one thread.
 */
final class PageFacts {
  /** Longer titles are cut: a title is for people reading logs, and a trap page can make it megabytes. */
  static final int MAX_TITLE_CHARS = 1_000;

  private final boolean obeyRelNofollow;
  private final int maxLinks;
  private final LinkResolver resolver;
  private final Set<String> links = new LinkedHashSet<>();
  private boolean baseSeen;
  private String canonical;
  private boolean noindex;
  private boolean nofollow;
  private String title;

  PageFacts(String pageUrl, boolean obeyRelNofollow, int maxLinks) {
    this.obeyRelNofollow = obeyRelNofollow;
    this.maxLinks = maxLinks;
    this.resolver = new LinkResolver(pageUrl);
  }

  /** Takes what {@code element}, just completed by the parser, says; its children came before it. */
  void see(Element element) {
    switch (element.normalName()) {
      case "a", "area" -> link(element.attr("href"), element.attr("rel"));
      case "frame", "iframe" -> link(element.attr("src"), "");
      case "link" -> {
        if (hasToken(element.attr("rel"), "canonical") && canonical == null) {
          canonical = resolver.resolve(element.attr("href"));
          if (canonical != null) {
            addLink(canonical);
          }
        }
      }
      case "base" -> {
        // Only the first <base> with an href counts (WHATWG HTML "frozen base URL"). Links the
        // parser completed before it (a <base> outside <head>) keep the page URL as their base.
        if (!baseSeen && element.hasAttr("href")) {
          baseSeen = true;
          resolver.rebase(element.attr("href"));
        }
      }
      case "meta" -> {
        if (element.attr("name").trim().equalsIgnoreCase("robots")) {
          robots(element.attr("content"));
        } else if (element.attr("http-equiv").trim().equalsIgnoreCase("refresh")) {
          String target = refreshUrl(element.attr("content"));
          if (target != null) {
            link(target, "");
          }
        }
      }
      case "title" -> {
        if (title == null && Parser.NamespaceHtml.equals(element.tag().namespace())) {
          title = titleText(element);
        }
      }
      default -> { }
    }
  }

  ParsedPage result(Charset charset) {
    List<String> followed = nofollow ? List.of() : List.copyOf(links);
    return new ParsedPage(followed, canonical, noindex, nofollow, charset, title == null ? "" : title);
  }

  private void link(String href, String rel) {
    if (nofollow || links.size() >= maxLinks || obeyRelNofollow && hasToken(rel, "nofollow")) {
      return;
    }
    String url = resolver.resolve(href);
    if (url != null) {
      addLink(url);
    }
  }

  private void addLink(String url) {
    if (links.size() < maxLinks) {
      links.add(url);
    }
  }

  /**
   * As {@code document.title}: ASCII whitespace stripped and collapsed to single spaces, then cut.
   * Read from the title's text nodes as they are, not from {@code element.text()}: an unclosed
   * {@code <title>} holds the rest of the page (it is raw text), and building that text whole,
   * then trimming it, ran a 10 MB page out of a 64 MB heap.
   */
  private static String titleText(Element element) {
    StringBuilder title = new StringBuilder();
    boolean space = false;
    for (Node child : element.childNodes()) {
      if (!(child instanceof TextNode node)) {
        continue;
      }
      String text = node.getWholeText();
      for (int i = 0; i < text.length() && title.length() < MAX_TITLE_CHARS; i++) {
        char c = text.charAt(i);
        if (isSpace(c)) {
          space = title.length() > 0;
        } else {
          if (space) {
            title.append(' ');
            space = false;
          }
          title.append(c);
        }
      }
    }
    if (title.length() > MAX_TITLE_CHARS) {
      title.setLength(MAX_TITLE_CHARS);   // a space and the character after it were appended together
    }
    return title.toString();
  }

  /**
   * The URL of a {@code <meta http-equiv="refresh" content="5; url=/next">}, or null if it names
   * none (a plain reload). WHATWG HTML "shared declarative refresh steps": a time of digits and
   * dots, then an optional ';' or ',', then an optional "url=" (any case, spaces around '='),
   * then the URL, cut at a matching quote if it starts with one.
   */
  static String refreshUrl(String content) {
    int n = content.length();
    int i = skipSpaces(content, 0);
    int timeStart = i;
    while (i < n && (Character.isDigit(content.charAt(i)) || content.charAt(i) == '.')) {
      i++;
    }
    if (i == timeStart) {
      return null;   // no time: not a refresh the spec accepts
    }
    i = skipSpaces(content, i);
    if (i < n && (content.charAt(i) == ';' || content.charAt(i) == ',')) {
      i = skipSpaces(content, i + 1);
    }
    if (i == n) {
      return null;
    }
    if (content.regionMatches(true, i, "url", 0, 3)) {
      int afterUrl = skipSpaces(content, i + 3);
      if (afterUrl < n && content.charAt(afterUrl) == '=') {
        i = skipSpaces(content, afterUrl + 1);
      }
    }
    String url = content.substring(i);
    if (!url.isEmpty() && (url.charAt(0) == '"' || url.charAt(0) == '\'')) {
      int end = url.indexOf(url.charAt(0), 1);
      url = end < 0 ? url.substring(1) : url.substring(1, end);
    }
    url = url.strip();
    return url.isEmpty() ? null : url;
  }

  private static int skipSpaces(String text, int from) {
    int i = from;
    while (i < text.length() && isSpace(text.charAt(i))) {
      i++;
    }
    return i;
  }

  /** Meta robots content: comma- or space-separated, case-insensitive; "none" means both. */
  private void robots(String content) {
    for (String directive : content.split("[,\\s]+")) {
      if (directive.equalsIgnoreCase("noindex")) {
        noindex = true;
      } else if (directive.equalsIgnoreCase("nofollow")) {
        nofollow = true;
      } else if (directive.equalsIgnoreCase("none")) {
        noindex = true;
        nofollow = true;
      }
    }
  }

  /** True if the space-separated token list {@code tokens} holds {@code token}, ignoring case (HTML rel). */
  static boolean hasToken(String tokens, String token) {
    int n = tokens.length();
    int i = 0;
    while (i < n) {
      while (i < n && isSpace(tokens.charAt(i))) {
        i++;
      }
      int start = i;
      while (i < n && !isSpace(tokens.charAt(i))) {
        i++;
      }
      if (i - start == token.length() && tokens.regionMatches(true, start, token, 0, token.length())) {
        return true;
      }
    }
    return false;
  }

  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
  }
}
