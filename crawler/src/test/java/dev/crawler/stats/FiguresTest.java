package dev.crawler.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FiguresTest {
  @ParameterizedTest(name = "{0} -> {1}, {2}")
  @CsvSource(delimiter = '|', textBlock = """
      # n             | compact | bytes (powers of 1024, as the config's sizes)
      0               | 0       | 0 B
      999             | 999     | 999 B
      1000            | 1.0k    | 1000 B
      1024            | 1.0k    | 1.0 KB
      1536            | 1.5k    | 1.5 KB
      9949            | 9.9k    | 9.7 KB
      # 9.95k rounds to 10, not 10.0
      9950            | 10k     | 9.7 KB
      10189           | 10k     | 10 KB
      88000           | 88k     | 86 KB
      310000          | 310k    | 303 KB
      # rounding up to the next unit: 999,600 is 1.0M, not 1000k; 1,048,000 B is 1.0 MB, not 1023 KB
      999600          | 1.0M    | 976 KB
      1048000         | 1.0M    | 1.0 MB
      1572864         | 1.6M    | 1.5 MB
      113000000       | 113M    | 108 MB
      2100000000      | 2.1B    | 2.0 GB
      9223372036854775807 | 9223372T | 8192 PB
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
      0.000004     | 0.0004%
      # never scientific notation, nor a row of zeros: below 0.0001% says only that it is tiny
      0.0000012    | 0.0001%
      0.0000004    | <0.0001%
      0.000000000000002 | <0.0001%
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
