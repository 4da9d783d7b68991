package dev.crawler.demo;

import dev.crawler.demo.LinkGraph.Kind;
import dev.crawler.demo.LinkGraph.Link;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * HTML of the demo's pages, laid out like a documentation page: head with canonical link, a
 * nav bar, a breadcrumb, a layout table with a table of contents, an article of headings,
 * paragraphs, nested option tables and code blocks, and a footer. Links come from {@link
 * LinkGraph#links} and nothing else, so every {@code <a href>} is one of the graph's links;
 * text comes from its own generator, so changing the text cannot change the links.
 */
final class PageRenderer {
  private static final long SALT_TEXT = 0x54455854L;
  private static final long SALT_TITLE = 0x5449544cL;

  private static final String STYLE = "body{font-family:system-ui,sans-serif;margin:0;color:#222}"
      + ".site-header{background:#1d3557;color:#fff;padding:.5em 1em}.site-header a{color:#fff}"
      + ".topnav ul{list-style:none;margin:0;padding:0}.topnav li{display:inline-block;margin-right:1em}"
      + ".layout{width:100%;border-collapse:collapse}.sidebar{width:16em;vertical-align:top;background:#f1f5f9}"
      + ".content{vertical-align:top;padding:0 2em}.params{border-collapse:collapse}.params td,.params th"
      + "{border:1px solid #ccd;padding:.2em .5em}.note{border-left:4px solid #e9c46a;padding:.5em 1em}"
      + "pre{background:#f6f8fa;padding:1em;overflow:auto}footer{border-top:1px solid #ccd;padding:1em}";

  /** Bytes left for a "see also" list of the remaining links once text has filled the page. */
  private static final int SEE_ALSO_ROOM = 1_500;

  private final LinkGraph graph;

  PageRenderer(LinkGraph graph) {
    this.graph = graph;
  }

  /** The title of a page, also the text of links to it. */
  String title(int h, int id) {
    StringBuilder sb = new StringBuilder(48);
    appendTitle(sb, h, id);
    return sb.toString();
  }

  private void appendTitle(StringBuilder sb, int h, int id) {
    if (id == 0) {
      sb.append(graph.host(h).name()).append(" documentation");
    } else {
      Vocabulary.title(sb, spread(graph.mix(h, id, SALT_TITLE)));
      sb.append(" (").append(id).append(')');
    }
  }

  /** Spreads a generator seed's bits (the finalizer of SplittableRandom and MurmurHash3). */
  private static long spread(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb93fe63bc34dL;
    return z ^ (z >>> 33);
  }

  byte[] page(int h, int id) {
    List<Link> links = graph.links(h, id);
    SplittableRandom random = new SplittableRandom(graph.mix(h, id, SALT_TEXT));
    String title = title(h, id);
    String host = graph.host(h).name();
    int target = graph.spec().pageBytes();
    StringBuilder sb = new StringBuilder(target + 4096);

    Link home = null;
    Link parent = null;
    List<Link> nav = new ArrayList<>();
    List<Link> children = new ArrayList<>();
    List<Link> content = new ArrayList<>();
    List<Link> footer = new ArrayList<>();
    for (Link link : links) {
      switch (link.kind()) {
        case HOME -> home = link;
        case PARENT -> parent = link;
        case NAV -> nav.add(link);
        case CHILD -> children.add(link);
        case MISSING, ERROR, MAILTO, JAVASCRIPT, SELF_FRAGMENT, PRINT -> footer.add(link);
        default -> content.add(link);
      }
    }

    sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>").append(title)
        .append(" &mdash; ").append(host).append("</title>\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<meta name=\"description\" content=\"");
    Vocabulary.sentence(sb, random);
    sb.setLength(sb.length() - 1);
    sb.append("\">\n<link rel=\"canonical\" href=\"").append(graph.url(h, graph.path(id))).append("\">\n")
        .append("<style>").append(STYLE).append("</style>\n</head>\n<body>\n<a id=\"top\"></a>\n")
        .append("<header class=\"site-header\">\n<div class=\"brand\">");
    if (home != null) {
      anchor(sb, home, host);
    } else {
      sb.append(host);
    }
    sb.append("</div>\n<nav class=\"topnav\"><ul>\n");
    for (Link link : nav) {
      sb.append("<li>");
      anchorToPage(sb, link);
      sb.append("</li>\n");
    }
    sb.append("</ul></nav>\n</header>\n<div class=\"breadcrumb\">");
    if (parent != null) {
      anchorToPage(sb, parent);
      sb.append(" &rsaquo; ");
    }
    sb.append("<span>").append(title).append("</span></div>\n")
        .append("<table class=\"layout\" role=\"presentation\"><tr>\n<td class=\"sidebar\">\n")
        .append("<table class=\"toc\"><caption>In this section</caption><tbody>\n");
    for (Link link : children) {
      sb.append("<tr><td>");
      anchorToPage(sb, link);
      sb.append("</td></tr>\n");
    }
    sb.append("</tbody></table>\n</td>\n<td class=\"content\">\n<article>\n<h1>").append(title).append("</h1>\n");

    StringBuilder end = new StringBuilder(1024);
    end.append("</article>\n</td></tr></table>\n<footer>\n<ul class=\"footer-links\">\n");
    for (Link link : footer) {
      end.append("<li>");
      anchor(end, link, footerText(link));
      end.append("</li>\n");
    }
    end.append("</ul>\n<p>&copy; 2024 ").append(host).append(". Generated by the crawler's demo site.</p>\n")
        .append("</footer>\n</body>\n</html>\n");

    int next = 0;
    int section = 0;
    for (int block = 0; next < content.size() || sb.length() + end.length() < target; block++) {
      if (next < content.size() && sb.length() + end.length() + SEE_ALSO_ROOM >= target) {
        // Text has used up the page: the links left go in one list, as "see also" lists do.
        next = seeAlso(sb, content, next);
        continue;
      }
      if (block % 3 == 0) {
        section++;
        sb.append("<h2 id=\"section-").append(section).append("\">");
        appendWords(sb, random, 2 + random.nextInt(4));
        sb.append("</h2>\n");
      }
      int kind = random.nextInt(6);
      if (kind < 3) {
        next = paragraph(sb, random, content, next);
      } else if (kind == 3) {
        next = optionsTable(sb, random, content, next);
      } else if (kind == 4) {
        next = note(sb, random, content, next);
      } else {
        codeBlock(sb, random);
      }
    }
    sb.append(end);
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  private int seeAlso(StringBuilder sb, List<Link> links, int next) {
    sb.append("<h2 id=\"see-also\">See also</h2>\n<ul class=\"see-also\">\n");
    while (next < links.size()) {
      Link link = links.get(next++);
      sb.append("<li>");
      contentAnchor(sb, link);
      sb.append("</li>\n");
    }
    sb.append("</ul>\n");
    return next;
  }

  /** A paragraph of 2-5 sentences with up to 3 links between them. */
  private int paragraph(StringBuilder sb, SplittableRandom random, List<Link> links, int next) {
    sb.append("<p>");
    int sentences = 2 + random.nextInt(4);
    for (int i = 0; i < sentences; i++) {
      Vocabulary.sentence(sb, random);
      if (i < 3 && next < links.size() && random.nextInt(4) != 0) {
        sb.append("See ");
        Link link = links.get(next++);
        contentAnchor(sb, link);
        sb.append(". ");
      }
    }
    sb.append("</p>\n");
    return next;
  }

  /** A table of configuration options, nested in the layout table; descriptions may link. */
  private int optionsTable(StringBuilder sb, SplittableRandom random, List<Link> links, int next) {
    sb.append("<table class=\"params\">\n<thead><tr><th>Option</th><th>Type</th><th>Description</th></tr></thead>\n")
        .append("<tbody>\n");
    int rows = 3 + random.nextInt(4);
    for (int i = 0; i < rows; i++) {
      sb.append("<tr><td><code>").append(Vocabulary.word(random)).append('.').append(Vocabulary.word(random))
          .append("</code></td><td>").append(random.nextBoolean() ? "string" : "integer").append("</td><td>");
      Vocabulary.sentence(sb, random);
      if (next < links.size() && random.nextBoolean()) {
        Link link = links.get(next++);
        contentAnchor(sb, link);
      }
      sb.append("</td></tr>\n");
    }
    sb.append("</tbody>\n</table>\n");
    return next;
  }

  private int note(StringBuilder sb, SplittableRandom random, List<Link> links, int next) {
    sb.append("<div class=\"note\"><strong>Note:</strong> ");
    Vocabulary.sentence(sb, random);
    if (next < links.size()) {
      Link link = links.get(next++);
      sb.append("Read ");
      contentAnchor(sb, link);
      sb.append(" first.");
    }
    sb.append("</div>\n");
    return next;
  }

  private static void codeBlock(StringBuilder sb, SplittableRandom random) {
    sb.append("<pre><code>");
    int lines = 2 + random.nextInt(5);
    for (int i = 0; i < lines; i++) {
      sb.append("crawler ").append(Vocabulary.word(random)).append(" --").append(Vocabulary.word(random))
          .append('=').append(random.nextInt(1000)).append(" &amp;&amp; echo ").append(Vocabulary.word(random))
          .append('\n');
    }
    sb.append("</code></pre>\n");
  }

  /** A link in the article: pages by their title, other URLs by what they are. */
  private void contentAnchor(StringBuilder sb, Link link) {
    switch (link.kind()) {
      case REDIRECT -> anchor(sb, link, "the latest release");
      case DISALLOWED -> anchor(sb, link, "the internal notes");
      default -> anchorToPage(sb, link);
    }
  }

  /** An anchor whose text is the title of the page it links to, and its host if that is another. */
  private void anchorToPage(StringBuilder sb, Link link) {
    openAnchor(sb, link);
    appendTitle(sb, link.host(), link.page());
    if (link.kind() == Kind.OTHER_HOST) {
      sb.append(" on ").append(graph.host(link.host()).name());
    }
    sb.append("</a>");
  }

  private static String footerText(Link link) {
    return switch (link.kind()) {
      case MISSING -> "Changelog of 0.9";
      case ERROR -> "Service status";
      case MAILTO -> "Contact the docs team";
      case JAVASCRIPT -> "Print";
      case SELF_FRAGMENT -> "Back to top";
      case PRINT -> "Printable version";
      default -> link.href();
    };
  }

  private static void anchor(StringBuilder sb, Link link, String text) {
    openAnchor(sb, link);
    sb.append(text).append("</a>");
  }

  private static void openAnchor(StringBuilder sb, Link link) {
    String href = link.href();
    sb.append("<a href=\"").append(href.indexOf('&') < 0 ? href : href.replace("&", "&amp;")).append("\"");
    if (link.kind() == Kind.OTHER_HOST) {
      sb.append(" class=\"external\"");
    }
    sb.append('>');
  }

  private static void appendWords(StringBuilder sb, SplittableRandom random, int words) {
    int start = sb.length();
    for (int i = 0; i < words; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(Vocabulary.word(random));
    }
    sb.setCharAt(start, Character.toUpperCase(sb.charAt(start)));
  }

  // ---------------------------------------------------------------- the other responses

  /** The body of a 404, 500, 301 or robots-disallowed page: short, and without links. */
  static byte[] statusPage(int status, String heading, String text) {
    String html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>" + status + " "
        + heading + "</title></head>\n<body>\n<h1>" + heading + "</h1>\n<p>" + text + "</p>\n</body>\n</html>\n";
    return html.getBytes(StandardCharsets.UTF_8);
  }
}
