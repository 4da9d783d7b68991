package dev.crawler.config.internal;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Finds the key a user probably meant when they wrote an unknown one. */
final class KeySuggestions {
  private KeySuggestions() {}

  /**
   * The closest of {@code candidates} to {@code written}, if it is close enough to be a
   * typo: at most one edit for short names, about a third of the length for long ones.
   * Case and '_' against '-' are ignored, since those are the usual slips in YAML.
   */
  static Optional<String> closest(String written, List<String> candidates) {
    String norm = normalize(written);
    int allowed = Math.max(1, norm.length() / 3);
    return candidates.stream()
        .map(c -> new Scored(c, distance(norm, normalize(c))))
        .filter(s -> s.distance() <= allowed)
        .min(Comparator.comparingInt(Scored::distance))
        .map(Scored::candidate);
  }

  private record Scored(String candidate, int distance) {}

  private static String normalize(String name) {
    return name.toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Optimal-string-alignment distance: Levenshtein plus swaps of two neighbours. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
