package dev.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HtmlSnifferTest {
  @ParameterizedTest(name = "[{0}] html: {1}")
  @CsvSource(delimiter = '|', textBlock = """
      <!DOCTYPE html><title>x</title>          | true
      <!doctype HTML>                          | true
      '  \\n\\t<html lang=en>'                  | true
      <HEAD>                                   | true
      <body>text                               | true
      <p>text                                  | true
      <a href=/next>next</a>                   | true
      <!-- a comment -->                       | true
      <br>                                     | true
      <table border=1>                         | true
      # a tag name must end where the pattern does
      <htmlx>                                  | false
      <abbr>                                   | false
      <bodyguard>                              | false
      # not HTML at all
      User-agent: *                            | false
      <?xml version="1.0"?><urlset>            | false
      '{"json": true}'                         | false
      ''                                       | false
      <html                                    | false
      """)
  void recognisesHtmlByItsFirstTag(String body, boolean html) {
    String text = body.replace("\\n", "\n").replace("\\t", "\t");
    assertThat(HtmlSniffer.looksLikeHtml(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(html);
  }

  @ParameterizedTest
  @CsvSource({"true", "false"})
  void aByteOrderMarkIsSkipped(boolean withBom) {
    byte[] page = "<html><a href=/x>x</a>".getBytes(StandardCharsets.UTF_8);
    byte[] body = withBom ? concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, page) : page;
    assertThat(HtmlSniffer.looksLikeHtml(body)).isTrue();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
