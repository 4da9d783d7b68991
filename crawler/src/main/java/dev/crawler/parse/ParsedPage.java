package dev.crawler.parse;

import java.nio.charset.Charset;
import java.util.List;
import java.util.Objects;

/**
 * What one HTML page says about the crawl: where it links, which URL it calls canonical, and
 * what its meta robots tag allows.
 *
 * @param links absolute http(s) URLs without fragment, in first-occurrence order, no duplicates,
 *     at most the parser's cap; not normalized (the crawl's normalizer cleans them). Empty when
 *     meta robots says nofollow.
 * @param canonical the first {@code <link rel=canonical>} resolved, or null; reported even when
 *     meta robots says nofollow
 * @param noindex meta robots says noindex (or none)
 * @param nofollow meta robots says nofollow (or none)
 * @param charset the charset the body was decoded with
 * @param title the first title's text with whitespace collapsed, "" if none
 */
public record ParsedPage(List<String> links, String canonical, boolean noindex, boolean nofollow, Charset charset,
    String title) {

  public ParsedPage {
    links = List.copyOf(links);
    Objects.requireNonNull(charset, "charset");
    Objects.requireNonNull(title, "title");
  }
}
