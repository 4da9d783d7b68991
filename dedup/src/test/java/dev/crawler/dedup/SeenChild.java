package dev.crawler.dedup;

import dev.crawler.dedup.UrlSeenService.Verdict;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A child process for {@link UrlSeenCrashTest}: marks URLs 0, 1, 2, ... in batches and
 * prints "NEW i" for each URL answered NEW, after the answer returned, until it is killed. With a
 * third argument n, it halts (as a kill would) inside the batch that starts at URL n, after the
 * caller took the batch and before the service recorded it, and prints "TAKEN count" first.
 */
public final class SeenChild {
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    UrlSeenService.FalsePositivePolicy policy = UrlSeenService.FalsePositivePolicy.valueOf(args[1]);
    UrlSeenService seen = UrlSeenService.open(UrlSeenService.Options.builder(dir).expectedUrls(200_000)
        .policy(policy).recentUrls(1 << 12).build());
    System.out.println("READY " + seen.recovery());
    System.out.flush();
    int haltAt = args.length > 2 ? Integer.parseInt(args[2]) : Integer.MAX_VALUE;
    for (int from = 0; ; from += 25) {
      if (from >= haltAt) {
        // The process dies after the caller took the batch and before it was recorded.
        seen.markSeenAll(batch(from), verdicts -> {
          System.out.println("TAKEN " + verdicts.stream().filter(v -> v == Verdict.NEW).count());
          System.out.flush();
          Runtime.getRuntime().halt(137);
        });
      }
      List<UrlFingerprint> batch = batch(from);
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

  static List<UrlFingerprint> batch(int from) {
    List<UrlFingerprint> batch = new ArrayList<>();
    for (int i = from; i < from + 25; i++) {
      batch.add(UrlFingerprint.of(url(i)));
    }
    return batch;
  }

  static String url(int i) {
    return "https://h" + (i % 50) + ".example/p/" + i;
  }
}
