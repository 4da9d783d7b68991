package dev.crawler.dedup;

import dev.crawler.dedup.UrlSeenService.Verdict;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A child process for {@link UrlSeenCrashTest}: marks URLs 0, 1, 2, ... in batches and
 * prints "NEW i" for each URL answered NEW, after the answer returned, until it is killed.
 */
public final class SeenChild {
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    UrlSeenService.FalsePositivePolicy policy = UrlSeenService.FalsePositivePolicy.valueOf(args[1]);
    UrlSeenService seen = UrlSeenService.open(UrlSeenService.Options.builder(dir).expectedUrls(200_000)
        .policy(policy).recentUrls(1 << 12).build());
    System.out.println("READY " + seen.recovery());
    System.out.flush();
    for (int from = 0; ; from += 25) {
      List<UrlFingerprint> batch = new ArrayList<>();
      for (int i = from; i < from + 25; i++) {
        batch.add(UrlFingerprint.of(url(i)));
      }
      List<Verdict> verdicts = seen.markSeenAll(batch);
      StringBuilder out = new StringBuilder();
      for (int i = 0; i < verdicts.size(); i++) {
        if (verdicts.get(i) == Verdict.NEW) {
          out.append("NEW ").append(from + i).append('\n');
        }
      }
      System.out.print(out);
      System.out.flush();
    }
  }

  static String url(int i) {
    return "https://h" + (i % 50) + ".example/p/" + i;
  }
}
