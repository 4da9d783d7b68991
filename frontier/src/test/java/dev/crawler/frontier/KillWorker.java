package dev.crawler.frontier;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Runs in a child JVM for {@link FrontierKillTest}: one thread offers batches of URLs, two
 * lease and complete them, until the parent kills the process. Each event is printed (and
 * flushed) only after the call that makes it durable has returned:
 * {@code O url|} offered, {@code L url} leased, {@code D url} completed and removed (FETCHED
 * or FAILED), {@code R url} completed as RETRY_AFTER (still queued). With deferred completions
 * ({@link #deferredCompletionsFor}) D and R are printed when {@code complete} returns, before
 * they are durable. URL number {@code id} is
 * offered with the via {@link #viaOf} and the hops {@link #redirectHopsOf} of its number, so
 * the parent can check both without their being printed.
 */
public final class KillWorker {
  private KillWorker() {}

  /** Seeds 13 and up spread the hosts over 4 partitions, each group with its own lock and group commit. */
  static int partitionsFor(long seed) {
    return seed >= 13 && seed != 15 ? 4 : 1;
  }

  /** Seeds 15 and up leave completions unwritten, up to this many a group, for a later write to take along. */
  static int deferredCompletionsFor(long seed) {
    return seed >= 15 ? 16 : 0;
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long seed = Long.parseLong(args[1]);
    PrintStream out = new PrintStream(System.out, false, java.nio.charset.StandardCharsets.UTF_8);
    FrontierOptions options = FrontierOptions.builder().defaultDelay(Duration.ZERO).backoffInitial(Duration.ZERO)
        .backoffMax(Duration.ZERO).maxRetryAfter(Duration.ZERO).suspendAfter(1_000_000).workingSetHosts(8).partitions(partitionsFor(seed))
        .deferredCompletions(deferredCompletionsFor(seed)).build();
    Frontier frontier = Frontier.open(dir, options);
    Thread offers = new Thread(() -> {
      SplittableRandom random = new SplittableRandom(seed);
      for (int id = 0; ; ) {
        List<FrontierEntry> batch = new ArrayList<>();
        int n = 1 + random.nextInt(20);
        for (int i = 0; i < n; i++, id++) {
          String host = "h" + random.nextInt(30) + ".com";
          batch.add(FrontierEntry.of("https://" + host + "/" + id, host, 0).withVia(viaOf(id))
              .withRedirectHops(redirectHopsOf(id)));
        }
        frontier.offer(batch);
        print(out, "O", batch.stream().map(FrontierEntry::url).toList());
      }
    });
    offers.start();
    for (int t = 0; t < 2; t++) {
      long fetcherSeed = seed * 31 + t;
      new Thread(() -> {
        SplittableRandom random = new SplittableRandom(fetcherSeed);
        try {
          while (true) {
            Optional<Lease> lease = frontier.next(Duration.ofMillis(100));
            if (lease.isEmpty()) {
              continue;
            }
            print(out, "L", List.of(lease.get().url()));
            int dice = random.nextInt(10);
            if (dice == 0) {
              frontier.complete(lease.get(), FetchOutcome.retryAfter(Duration.ZERO));
              print(out, "R", List.of(lease.get().url()));
            } else {
              frontier.complete(lease.get(), dice == 1 ? FetchOutcome.FAILED : FetchOutcome.FETCHED);
              print(out, "D", List.of(lease.get().url()));
            }
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }).start();
    }
    offers.join();
  }

  /** A third of the URLs are seeds (no via); the rest were found on a page of another host. */
  static String viaOf(int id) {
    return id % 3 == 0 ? null : "https://src" + id % 7 + ".com/page/" + id / 2;
  }

  static int redirectHopsOf(int id) {
    return id % 5 == 0 ? 255 : id % 3;
  }

  private static void print(PrintStream out, String event, List<String> urls) {
    synchronized (out) {
      for (String url : urls) {
        out.print(event);
        out.print(' ');
        out.print(url);
        out.println('|');   // the parent ignores a line the kill cut short
      }
      out.flush();
    }
  }
}
