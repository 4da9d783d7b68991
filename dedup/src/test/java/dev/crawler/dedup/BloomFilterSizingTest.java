package dev.crawler.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BloomFilterSizingTest {

  @ParameterizedTest(name = "p = {0}: {1} bits per key, k = {2}")
  @CsvSource({
      // p,     standard bits per key (-ln p / ln² 2), standard k = round(c ln 2)
      "0.1,    4.79,  3",
      "0.01,   9.59,  7",
      "0.001,  14.38, 10",
      "0.0001, 19.17, 13"})
  void theStandardFormulasGiveTheTextbookSizes(double p, double bitsPerKey, int k) {
    assertThat(BloomFilterSizing.standardBitsPerKey(p)).isCloseTo(bitsPerKey, within(0.005));
    assertThat((int) Math.round(bitsPerKey * Math.log(2))).isEqualTo(k);
    assertThat(BloomFilterSizing.standardRate(BloomFilterSizing.standardBitsPerKey(p), k))
        .isCloseTo(p, within(p * 0.05));
  }

  @ParameterizedTest(name = "p = {0}: the blocked layouts need more bits than the standard filter, and meet p")
  @CsvSource({"0.1", "0.01", "0.001", "0.0001"})
  void blockedSizingMeetsTheTargetWithMoreBitsThanTheStandardFormula(double p) {
    for (BloomFilter.Layout layout : BloomFilter.Layout.values()) {
      BloomFilterSizing.Choice choice = BloomFilterSizing.forRate(p, layout.blockBits());
      double aim = p * (1 - BloomFilterSizing.MARGIN);
      assertThat(choice.rate()).isLessThanOrEqualTo(aim);
      assertThat(choice.bitsPerKey()).isGreaterThanOrEqualTo(BloomFilterSizing.standardBitsPerKey(p) - 0.01);
      // One hundredth of a bit less would miss the aim: the search finds the least.
      assertThat(BloomFilterSizing.bestHashes(choice.bitsPerKey() - 0.01, layout.blockBits()).rate()).isGreaterThan(aim);
    }
  }

  @ParameterizedTest(name = "{0} bits per key in blocks of 512: k = {1}")
  @CsvSource({"9.585, 6", "10.0, 7", "14.38, 9"})
  void theBlockedFormulaIsWorseThanTheStandardOneAtEqualMemory(double bitsPerKey, int expectedBestK) {
    BloomFilterSizing.Choice blocked = BloomFilterSizing.bestHashes(bitsPerKey, 512);
    assertThat(blocked.hashes()).isEqualTo(expectedBestK);
    int k = (int) Math.round(bitsPerKey * Math.log(2));
    assertThat(blocked.rate()).isGreaterThan(BloomFilterSizing.standardRate(bitsPerKey, k));
    // Page-sized blocks are within 1% of the standard rate.
    BloomFilterSizing.Choice page = BloomFilterSizing.bestHashes(bitsPerKey, 32768);
    assertThat(page.rate()).isCloseTo(BloomFilterSizing.standardRate(bitsPerKey, k),
        within(BloomFilterSizing.standardRate(bitsPerKey, k) * 0.01));
  }
}
