package dev.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class PageParserTest {
  private static final Charset WINDOWS_1251 = Charset.forName("windows-1251");
  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  private final PageParser parser = new PageParser(true, 10);

  @ParameterizedTest(name = "{1}")
  @CsvFileSource(resources = "page-links.csv", delimiter = '|', quoteCharacter = '`', numLinesToSkip = 1,
      ignoreLeadingAndTrailingWhitespace = false, maxCharsPerColumn = 10_000)
  void eachLinkResolvesAsABrowserWouldFollowIt(String page, String html, String expected) {
    List<String> links = expected == null ? List.of() : Arrays.asList(expected.split("¦"));
    assertThat(parse(page, html).links()).containsExactlyElementsOf(links);
  }

  @Test
  void aParentOfManyLinksBetweenTextAndCommentsGivesEveryLinkInOrder() {
    StringBuilder html = new StringBuilder("<title>Index</title><dl>\n");
    for (int i = 0; i < 5000; i++) {
      html.append("<dt><a href=\"/m").append(i).append("\">m").append(i).append("</a> (module)</dt>\n<!-- c -->");
    }
    html.append("<table><a href=\"/fostered\">f</a><tr><td><a href=\"/cell\">c</a></table></dl>");
    ParsedPage page = new PageParser(true, 10_000).parse("http://example.com/", bytes(html.toString()), null);
    assertThat(page.title()).isEqualTo("Index");
    assertThat(page.links()).hasSize(5002).startsWith("http://example.com/m0", "http://example.com/m1")
        .contains("http://example.com/m4999", "http://example.com/cell", "http://example.com/fostered");
  }

  @Test
  void relNofollowLinksAreKeptWhenNotObeyed() {
    ParsedPage page = new PageParser(false, 10).parse("http://example.com/",
        bytes("<a rel=nofollow href=/n>n</a>"), null);
    assertThat(page.links()).containsExactly("http://example.com/n");
  }

  @Test
  void metaRobotsNofollowEmptiesTheLinksButKeepsTheCanonical() {
    ParsedPage page = parse("http://example.com/", """
        <head><meta name="robots" content="nofollow"><link rel="canonical" href="/c"></head>
        <a href="/a">a</a>""");
    assertThat(page.links()).isEmpty();
    assertThat(page.canonical()).isEqualTo("http://example.com/c");
    assertThat(page.nofollow()).isTrue();
    assertThat(page.noindex()).isFalse();
  }

  @Test
  void metaRobotsIsReadWhateverItsCaseAndSeparators() {
    assertThat(robots("<meta name=robots content=noindex>")).containsExactly(true, false);
    assertThat(robots("<meta name=ROBOTS content='NoIndex,NOFOLLOW'>")).containsExactly(true, true);
    assertThat(robots("<meta name=' Robots ' content='noarchive  nofollow'>")).containsExactly(false, true);
    assertThat(robots("<meta name=robots content=none>")).containsExactly(true, true);
    assertThat(robots("<meta name=robots content='index, follow'>")).containsExactly(false, false);
    assertThat(robots("<meta name=googlebot content=none><meta content=noindex>")).containsExactly(false, false);
    assertThat(robots("<meta name=robots content=noindex><meta name=robots content=nofollow>"))
        .containsExactly(true, true);
  }

  @Test
  void theCanonicalIsTheFirstOneResolvedAndIsAlsoALink() {
    ParsedPage page = parse("http://example.com/a/b?x=1", """
        <link rel="Canonical" href="../canon#frag"><link rel="canonical" href="/second"><a href="/a">""");
    assertThat(page.canonical()).isEqualTo("http://example.com/canon");
    assertThat(page.links()).containsExactly("http://example.com/canon", "http://example.com/a");
    assertThat(parse("http://example.com/", "<link rel=canonical href='javascript:x'>").canonical()).isNull();
  }

  @Test
  void theTitleIsTheFirstHtmlTitleWithWhitespaceCollapsed() {
    assertThat(parse("http://example.com/", "<title>\n  Hello \t World </title><title>Two</title>").title())
        .isEqualTo("Hello World");
    assertThat(parse("http://example.com/", "<body><svg><title>Shape</title></svg>").title()).isEmpty();
    assertThat(parse("http://example.com/", "<p>no title").title()).isEmpty();
    assertThat(parse("http://example.com/", "<title>" + "t".repeat(5_000) + "</title>").title())
        .hasSize(PageFacts.MAX_TITLE_CHARS);
    assertThat(parse("http://example.com/", "<title>" + "w ".repeat(3_000) + "</title>").title())
        .hasSize(PageFacts.MAX_TITLE_CHARS);   // a space and the word after it came in together, one over
    assertThat(parse("http://example.com/", "<title>" + "<a href=/x>".repeat(2_000)).title())
        .as("an unclosed title: the rest of the page is its text").hasSize(PageFacts.MAX_TITLE_CHARS);
  }

  @Test
  void theHeaderCharsetWinsOverAContradictingMeta() {
    byte[] body = ("<meta charset=utf-8><title>Привет</title>").getBytes(WINDOWS_1251);
    ParsedPage page = parser.parse("http://example.com/", body, WINDOWS_1251);
    assertThat(page.charset()).isEqualTo(WINDOWS_1251);
    assertThat(page.title()).isEqualTo("Привет");
  }

  @Test
  void withoutAHeaderCharsetTheMetaCharsetDecodes() {
    byte[] meta = "<meta charset=\"windows-1251\"><title>Привет</title>".getBytes(WINDOWS_1251);
    assertThat(parser.parse("http://example.com/", meta, null))
        .extracting(ParsedPage::charset, ParsedPage::title).containsExactly(WINDOWS_1251, "Привет");
    byte[] httpEquiv = "<meta http-equiv=Content-Type content='text/html; charset=KOI8-R'><title>Привет</title>"
        .getBytes(Charset.forName("KOI8-R"));
    assertThat(parser.parse("http://example.com/", httpEquiv, null).title()).isEqualTo("Привет");
    byte[] xml = "<?xml version=\"1.0\" encoding=\"windows-1251\"?><title>Привет</title>".getBytes(WINDOWS_1251);
    assertThat(parser.parse("http://example.com/", xml, null).title()).isEqualTo("Привет");
  }

  @Test
  void aMetaCharsetInCapitalsOrAfterOtherMetasStillDecodes() {
    byte[] capitals = "<META HTTP-EQUIV='Content-TYPE' CONTENT='text/html; CHARSET=windows-1251'><title>Привет</title>"
        .getBytes(WINDOWS_1251);
    assertThat(parser.parse("http://example.com/", capitals, null))
        .extracting(ParsedPage::charset, ParsedPage::title).containsExactly(WINDOWS_1251, "Привет");
    byte[] later = "<meta name=viewport content=width=device-width><meta ChArSeT=windows-1251><title>Привет</title>"
        .getBytes(WINDOWS_1251);
    assertThat(parser.parse("http://example.com/", later, null).charset()).isEqualTo(WINDOWS_1251);
    assertThat(PageCharset.containsCharsetWord(bytes("<meta name=viewport>"), 20)).isFalse();
    assertThat(PageCharset.containsCharsetWord(bytes("xx CHARSE"), 9)).isFalse();
    assertThat(PageCharset.containsCharsetWord(bytes("xx chaRSET"), 10)).isTrue();
  }

  @Test
  void withoutAnyDeclarationTheBodyIsUtf8() {
    ParsedPage page = parser.parse("http://example.com/", "<title>Grüße</title>".getBytes(StandardCharsets.UTF_8), null);
    assertThat(page.charset()).isEqualTo(StandardCharsets.UTF_8);
    assertThat(page.title()).isEqualTo("Grüße");
  }

  @Test
  void aMetaCharsetJavaDoesNotKnowFallsBackToUtf8() {
    assertThat(parser.parse("http://example.com/", bytes("<meta charset='no-such-charset'>"), null).charset())
        .isEqualTo(StandardCharsets.UTF_8);
    assertThat(parser.parse("http://example.com/", bytes("<meta charset='bad name!'>"), null).charset())
        .isEqualTo(StandardCharsets.UTF_8);
  }

  /** Common labels whose encoding the JDK names otherwise: refused once by a filter by JDK name. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "gb2312      | 中文标题",
      "iso-8859-9  | Türkçe Başlık",
      "latin5      | Türkçe Başlık",
      "tis-620     | ภาษาไทย",
      "iso-8859-11 | ภาษาไทย",
      "euc-kr      | 한국어 제목",
      "shift_jis   | 日本語のタイトル",
  })
  void commonLabelsDecodeAsBrowsersDecodeThem(String label, String title) {
    byte[] page = ("<html><head><meta charset=\"" + label + "\"><title>" + title + "</title></head>")
        .getBytes(Charset.forName(label));

    assertThat(parser.parse("http://example.com/", page, null).title()).isEqualTo(title);
    assertThat(parser.parse("http://example.com/", page, Charset.forName(label)).title()).isEqualTo(title);
  }

  /** Browsers know the WHATWG Encoding Standard's encodings only; the JDK knows EBCDIC and UTF-32 too. */
  @ParameterizedTest
  @ValueSource(strings = {"IBM037", "cp1047", "UTF-32", "x-UTF-32BE-BOM", "IBM500"})
  void aCharsetBrowsersDoNotKnowIsIgnoredInTheMetaAndInTheHeader(String label) {
    byte[] page = ("<html><head><meta charset=\"" + label + "\"></head><body><a href=\"/next\">n</a>")
        .getBytes(StandardCharsets.US_ASCII);

    ParsedPage fromMeta = parser.parse("http://example.com/", page, null);
    ParsedPage fromHeader = parser.parse("http://example.com/", page, Charset.forName(label));

    assertThat(fromMeta.charset()).isEqualTo(StandardCharsets.UTF_8);
    assertThat(fromMeta.links()).containsExactly("http://example.com/next");
    assertThat(fromHeader.links()).containsExactly("http://example.com/next");
  }

  /** WHATWG Encoding: latin1 labels mean windows-1252; a meta saying UTF-16 was read as ASCII, so means UTF-8. */
  @Test
  void charsetLabelsMeanWhatTheyMeanInBrowsers() {
    byte[] euro = {'<', 't', 'i', 't', 'l', 'e', '>', (byte) 0x80, '<', '/', 't', 'i', 't', 'l', 'e', '>'};
    ParsedPage latin1 = parser.parse("http://example.com/", euro, StandardCharsets.ISO_8859_1);
    assertThat(latin1.charset()).isEqualTo(WINDOWS_1252);
    assertThat(latin1.title()).isEqualTo("€");
    assertThat(parser.parse("http://example.com/", bytes("<meta charset=utf-16>"), null).charset())
        .isEqualTo(StandardCharsets.UTF_8);
  }

  @Test
  void aByteOrderMarkWinsOverTheHeader() {
    byte[] text = "<title>Grüße</title>".getBytes(StandardCharsets.UTF_16LE);
    byte[] body = new byte[text.length + 2];
    body[0] = (byte) 0xFF;
    body[1] = (byte) 0xFE;
    System.arraycopy(text, 0, body, 2, text.length);
    ParsedPage page = parser.parse("http://example.com/", body, StandardCharsets.UTF_8);
    assertThat(page.charset()).isEqualTo(StandardCharsets.UTF_16LE);
    assertThat(page.title()).isEqualTo("Grüße");
  }

  @Test
  void invalidBytesBecomeReplacementCharacters() {
    byte[] body = {'<', 't', 'i', 't', 'l', 'e', '>', 'a', (byte) 0xC3, (byte) 0x28, 'b', (byte) 0xFF,
        '<', '/', 't', 'i', 't', 'l', 'e', '>', '<', 'a', ' ', 'h', 'r', 'e', 'f', '=', '/', (byte) 0xFE, '>'};
    ParsedPage page = parser.parse("http://example.com/", body, null);
    assertThat(page.title()).isEqualTo("a\uFFFD(b\uFFFD");
    assertThat(page.links()).containsExactly("http://example.com/\uFFFD");
  }

  @Test
  void fiveThousandLinksAreAllKeptUnderTheDefaultCap() {
    StringBuilder html = new StringBuilder("<ul>");
    for (int i = 0; i < 5_000; i++) {
      html.append("<li><a href=\"/item/").append(i).append("\">item ").append(i).append("</a>");
    }
    List<String> links = new PageParser(true, 10_000).parse("http://example.com/", bytes(html.toString()), null).links();
    assertThat(links).hasSize(5_000).startsWith("http://example.com/item/0").endsWith("http://example.com/item/4999");
  }

  @Test
  void aCapOfZeroKeepsNoLinksButStillReportsTheCanonical() {
    ParsedPage page = new PageParser(true, 0).parse("http://example.com/",
        bytes("<link rel=canonical href=/c><a href=/a>"), null);
    assertThat(page.links()).isEmpty();
    assertThat(page.canonical()).isEqualTo("http://example.com/c");
  }

  @Test
  void emptyBodiesAndUnparseablePageUrlsGiveEmptyPages() {
    assertThat(parser.parse("http://example.com/", new byte[0], null))
        .isEqualTo(new ParsedPage(List.of(), null, false, false, StandardCharsets.UTF_8, ""));
    assertThat(parser.parse("not a url", bytes("<a href=rel>x</a><a href='http://example.com/abs'>"), null).links())
        .containsExactly("http://example.com/abs");
  }

  /** Web input never throws: random bytes and random tag soup, from a fixed seed. */
  @Test
  void parsingNeverThrowsOnJunk() {
    SplittableRandom random = new SplittableRandom(20261201);
    String[] pieces = {"<a href=", "<base href=", "<meta charset=", "<meta name=robots content=", "\"", "'", ">",
        "</a>", "<!--", "-->", "<script>", "</script>", "<svg>", "<table>", "<frameset>", "&#", "&amp;", ":", "//",
        "javascript:", "http://", "\\", "#", "?", "..", "/", "ü", "\uFFFF", "\u0000", "<title>", "<link rel=canonical href="};
    for (int i = 0; i < 500; i++) {
      byte[] body;
      if (i % 2 == 0) {
        body = new byte[random.nextInt(2_000)];
        random.nextBytes(body);
      } else {
        StringBuilder soup = new StringBuilder();
        for (int j = random.nextInt(200); j > 0; j--) {
          soup.append(pieces[random.nextInt(pieces.length)]);
        }
        body = bytes(soup.toString());
      }
      ParsedPage page = parser.parse("http://example.com/dir/page", body, i % 3 == 0 ? StandardCharsets.UTF_8 : null);
      assertThat(page.links()).allMatch(url -> url.startsWith("http://") || url.startsWith("https://"))
          .noneMatch(url -> url.contains("#")).hasSizeLessThanOrEqualTo(10);
    }
  }

  private ParsedPage parse(String page, String html) {
    return parser.parse(page, bytes(html), StandardCharsets.UTF_8);
  }

  private boolean[] robots(String head) {
    ParsedPage page = parse("http://example.com/", "<head>" + head + "</head>");
    return new boolean[] {page.noindex(), page.nofollow()};
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
