package dev.crawler.visit;

import dev.crawler.fetch.FetchResult;
import dev.crawler.frontier.FetchOutcome;
import dev.crawler.intake.LinkIntake;
import dev.crawler.parse.HtmlSniffer;
import dev.crawler.parse.PageParser;
import dev.crawler.parse.ParsedPage;
import dev.crawler.parse.Sitemap;
import dev.crawler.parse.SitemapReader;
import dev.crawler.record.CrawlOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The body's links into the intake: an HTML page's (by its type, or sniffed when it has none), or
 * a sitemap's URLs (by its bytes, whatever its type: a text/html sitemap is read as one, and only
 * if it is not a readable sitemap is it parsed as HTML). Only a 2xx with a body has links to give.
 * The last stage: the page is fetched.
 */
final class FollowLinks implements VisitStage {
  private final PageParser parser;
  private final SitemapReader sitemaps;
  private final LinkIntake intake;
  private final boolean followSitemaps;

  FollowLinks(PageParser parser, SitemapReader sitemaps, LinkIntake intake, boolean followSitemaps) {
    this.parser = parser;
    this.sitemaps = sitemaps;
    this.intake = intake;
    this.followSitemaps = followSitemaps;
  }

  @Override
  public Step apply(Visit visit) {
    FetchResult result = visit.result();
    if (result.httpStatus() >= 200 && result.httpStatus() < 300 && result.body().length > 0) {
      takeLinks(visit, result);
    }
    return new Step.Done(result.truncated() ? CrawlOutcome.TRUNCATED : CrawlOutcome.FETCHED, FetchOutcome.FETCHED,
        result.cause());
  }

  private void takeLinks(Visit visit, FetchResult result) {
    byte[] body = result.body();
    int depth = visit.lease().depth() + 1;
    String via = visit.lease().url();
    boolean html = result.isHtml() || result.contentType() == null && HtmlSniffer.looksLikeHtml(body);
    if (followSitemaps && (!html || SitemapReader.mayBeSitemap(body))) {
      Optional<Sitemap> sitemap = sitemaps.read(result.url(), body, result.contentType());
      if (sitemap.isPresent()) {
        List<String> urls = new ArrayList<>(sitemap.get().sitemapUrls());
        urls.addAll(sitemap.get().pageUrls());
        intake.take(urls, depth, via, 0);
        return;
      }
    }
    if (html) {
      ParsedPage page = parser.parse(result.url(), body, result.charset());
      if (!page.nofollow()) {
        intake.take(page.links(), depth, via, 0);
      }
    }
  }
}
