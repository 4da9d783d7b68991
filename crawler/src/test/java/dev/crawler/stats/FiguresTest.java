package dev.crawler.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FiguresTest {
  @ParameterizedTest(name = "{0} -> {1}, {2}")
  @CsvSource(delimiter = '|', textBlock = """
      # n             | compact | bytes
      0               | 0       | 0 B
      999             | 999     | 999 B
      1000            | 1.0k    | 1.0 kB
      9949            | 9.9k    | 9.9 kB
      # 9.95k rounds to 10, not 10.0
      9950            | 10k     | 10 kB
      88000           | 88k     | 88 kB
      310000          | 310k    | 310 kB
      # rounding up to the next unit: 999,600 is 1.0M, not 1000k
      999600          | 1.0M    | 1.0 MB
      1700000         | 1.7M    | 1.7 MB
      113000000       | 113M    | 113 MB
      2100000000      | 2.1B    | 2.1 GB
      9223372036854775807 | 9223372T | 9223 PB
      """)
  void countsAndBytesHaveAtMostThreeSignificantFigures(long n, String compact, String bytes) {
    assertThat(Figures.compact(n)).isEqualTo(compact);
    assertThat(Figures.bytes(n)).isEqualTo(bytes);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', textBlock = """
      0            | 0%
      1            | 100%
      0.11         | 11%
      0.0095       | 1%
      0.003        | 0.3%
      # never scientific notation
      0.0000004    | 0.00004%
      0.00000000123 | 0.0000001%
      NaN          | ?%
      """)
  void percentsAreWholeFromOnePercentAndOneSignificantFigureBelow(double fraction, String expected) {
    assertThat(Figures.percent(fraction)).isEqualTo(expected);
  }

  @Test
  void ratesAndSharesAndDurationsReadAtAGlance() {
    assertThat(Figures.rate(0.5)).isEqualTo("0.5");
    assertThat(Figures.rate(1032.4)).isEqualTo("1,032");
    assertThat(Figures.share(1, 3)).isEqualTo("33%");
    assertThat(Figures.share(0, 0)).isEqualTo("0%");
    assertThat(Figures.grouped(1_204_113)).isEqualTo("1,204,113");
    assertThat(Figures.duration(Duration.ofMillis(45_900))).isEqualTo("45s");
    assertThat(Figures.duration(Duration.ofSeconds(185))).isEqualTo("3m 05s");
    assertThat(Figures.duration(Duration.ofSeconds(3723))).isEqualTo("1h 02m 03s");
  }
}
