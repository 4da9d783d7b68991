package dev.crawler.dedup.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BitBlocksTest {
  /** 512-bit blocks, one cache line each: 8 words. */
  private static final int BLOCK_BITS = 512;

  @Test
  void bitsPastTheTwoBillionthAreSetAndReadAtTheirOwnPlace() {
    // 2^31 bits and a few blocks more: the last blocks' words lie past any int index of bits.
    long blocks = (1L << 31) / BLOCK_BITS + 3;
    BitBlocks bits = new BitBlocks(blocks, BLOCK_BITS);
    assertThat(bits.wordCount() * 64).isGreaterThan(1L << 31);
    long[] chosen = {0, 1, (1L << BitBlocks.PAGE_SHIFT) / 8 - 1, (1L << BitBlocks.PAGE_SHIFT) / 8, blocks - 2, blocks - 1};
    for (int i = 0; i < chosen.length; i++) {
      long word = bits.firstWord(chosen[i]) + i % 8;
      long before = BitBlocks.setBits(bits.pageOf(word), BitBlocks.offsetInPage(word), 1L << (i * 7));
      assertThat(before).as("block %s untouched before", chosen[i]).isZero();
    }
    for (int i = 0; i < chosen.length; i++) {
      long word = bits.firstWord(chosen[i]) + i % 8;
      assertThat(BitBlocks.word(bits.pageOf(word), BitBlocks.offsetInPage(word))).as("block %s", chosen[i])
          .isEqualTo(1L << (i * 7));
    }
    assertThat(bits.countSetBits()).as("no bit landed twice or elsewhere").isEqualTo(chosen.length);
    assertThat(bits.firstWord(blocks - 1) * 64).isGreaterThan(Integer.MAX_VALUE);
  }

  @Test
  void aBlockNeverStraddlesTwoPages() {
    BitBlocks bits = new BitBlocks(3 * (1L << BitBlocks.PAGE_SHIFT) / 8, BLOCK_BITS);
    for (long block : new long[] {0, (1L << BitBlocks.PAGE_SHIFT) / 8 - 1, (1L << BitBlocks.PAGE_SHIFT) / 8}) {
      long first = bits.firstWord(block);
      assertThat(bits.pageOf(first)).isSameAs(bits.pageOf(first + BLOCK_BITS / 64 - 1));
    }
  }

  @Test
  void badSizesAreNamed() {
    assertThatThrownBy(() -> new BitBlocks(0, BLOCK_BITS)).hasMessageContaining("blockCount (0)");
    assertThatThrownBy(() -> new BitBlocks(10, 100)).hasMessageContaining("blockBits (100)");
  }
}
