package dev.crawler.url;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.dedup.UrlNormalization;
import dev.crawler.dedup.UrlNormalizer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FetchableUrlsTest {
  private static final UrlNormalizer NORMALIZER = new UrlNormalizer(UrlNormalizer.Options.defaults());

  /**
   * Names the normalizer lets through and OkHttp refuses: a 64-letter label is one the URL
   * Standard takes (it does not verify DNS lengths), and no DNS name.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "http://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.example.test/",
  })
  void aUrlTheHttpClientCannotFetchAsItIsIsRejectedAsMalformed(String raw) {
    UrlNormalization normalized = NORMALIZER.normalize(raw);
    assertThat(normalized).as("the normalizer alone accepts it").isInstanceOf(UrlNormalization.Accepted.class);

    UrlNormalization confirmed = FetchableUrls.confirm(normalized);

    assertThat(confirmed).isInstanceOfSatisfying(UrlNormalization.Rejected.class,
        r -> assertThat(r.reason()).isEqualTo(UrlNormalization.Reason.MALFORMED));
    assertThat(FetchableUrls.fetchable(((UrlNormalization.Accepted) normalized).url())).isNull();
  }

  /** Punycode labels that decode to no valid label: the normalizer refuses them itself (UTS 46), as OkHttp does. */
  @ParameterizedTest
  @ValueSource(strings = {"http://xn--zz.example.test/", "http://xn--ab-.com/", "http://xn---a.com/page"})
  void aPunycodeLabelThatDecodesToNoValidLabelIsRefusedByTheNormalizerAndTheClient(String raw) {
    assertThat(NORMALIZER.normalize(raw)).isInstanceOfSatisfying(UrlNormalization.Rejected.class,
        r -> assertThat(r.reason()).isEqualTo(UrlNormalization.Reason.MALFORMED));
    assertThat(FetchableUrls.fetchable(raw)).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "http://example.test/",
      "https://Example.TEST:8443/a/b?q=1#f",
      "http://127.0.0.1:8080/x",
      "http://[::1]:8080/x",
      "http://bücher.example/",
      "http://user:pw@example.test/",
      "http://xn--bcher-kva.example/",
      "http://a_b.example.test/",
  })
  void everyOtherNormalFormPasses(String raw) {
    UrlNormalization normalized = NORMALIZER.normalize(raw);
    assertThat(normalized).isInstanceOf(UrlNormalization.Accepted.class);

    assertThat(FetchableUrls.confirm(normalized)).isEqualTo(normalized);
  }

  @ParameterizedTest
  @ValueSource(strings = {"http://[0:0:0:0:0:0:0:1]/", "http://[::ffff:1.2.3.4]/", "http://[2001:DB8::1]/"})
  void anIpv6LiteralSpelledOtherwiseThanTheClientSpellsItIsRejectedAtIntakeButFetchedIfQueued(String url) {
    // The normalizer writes these in the client's spelling; one queued by a build before it did
    // is still fetched (the client reads it all the same).
    assertThat(FetchableUrls.confirm(new UrlNormalization.Accepted(url))).isInstanceOf(UrlNormalization.Rejected.class);
    assertThat(FetchableUrls.fetchable(url)).isNotNull();
    assertThat(FetchableUrls.fetchable("http://[::1]/")).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"mailto:a@example.test", "http://", "ftp://example.test/"})
  void aRejectionIsPassedOnAsItIs(String raw) {
    UrlNormalization normalized = NORMALIZER.normalize(raw);
    assertThat(normalized).isInstanceOf(UrlNormalization.Rejected.class);

    assertThat(FetchableUrls.confirm(normalized)).isSameAs(normalized);
  }
}
