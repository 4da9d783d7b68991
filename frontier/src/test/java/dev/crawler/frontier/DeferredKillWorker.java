package dev.crawler.frontier;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs in a child JVM for {@link DeferredCompletionsKillTest}: offers one URL to each of
 * {@link #HOSTS} hosts, leases them all, then completes {@link #COMPLETED} of them one by one
 * with deferred completions, printing {@code D url} as each {@code complete} returns. Then it
 * prints {@code READY} and waits to be killed: at once in mode {@code unwritten} (its deferred
 * writer runs once a day, so what the completions left unwritten stays so), or after two seconds
 * of the real writer's 50 ms rounds in mode {@code written}.
 */
public final class DeferredKillWorker {
  static final int HOSTS = 100;
  static final int COMPLETED = 95;
  static final int DEFERRED = 10;

  private DeferredKillWorker() {}

  static FrontierOptions options() {
    return FrontierOptions.builder().defaultDelay(Duration.ZERO).deferredCompletions(DEFERRED).build();
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    boolean written = args[1].equals("written");
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    Frontier frontier = Frontier.open(dir, options(),
        written ? Frontier.DEFERRED_WRITE_INTERVAL : Duration.ofDays(1));
    List<FrontierEntry> entries = new ArrayList<>();
    for (int h = 0; h < HOSTS; h++) {
      entries.add(FrontierEntry.of("https://h" + h + ".com/", "h" + h + ".com", 0));
    }
    frontier.offer(entries);
    List<Lease> leases = new ArrayList<>();
    for (Optional<Lease> l = frontier.next(Duration.ZERO); l.isPresent(); l = frontier.next(Duration.ZERO)) {
      leases.add(l.get());
    }
    if (leases.size() != HOSTS) {
      throw new IllegalStateException("leased " + leases.size() + " of " + HOSTS);
    }
    for (int i = 0; i < COMPLETED; i++) {
      frontier.complete(leases.get(i), FetchOutcome.FETCHED);
      out.println("D " + leases.get(i).url());
    }
    if (written) {
      Thread.sleep(2_000);
    }
    out.println("READY");
    Thread.sleep(Long.MAX_VALUE);
  }
}
