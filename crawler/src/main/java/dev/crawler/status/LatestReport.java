package dev.crawler.status;

import dev.crawler.stats.StatsFile;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The stats reporter's last report, and a point of each report before it up to {@link #HISTORY},
 * for the page's charts over time. Fed by the reporter's thread, read by the status server's.
 */
final class LatestReport implements Consumer<StatsFile> {
  /** Reports kept: two hours at the default 10 s interval, the heap of a few hundred small records. */
  static final int HISTORY = 720;

  private final AtomicReference<StatsFile> latest = new AtomicReference<>();
  private final ArrayDeque<HistoryPoint> history = new ArrayDeque<>();

  @Override
  public void accept(StatsFile report) {
    synchronized (history) {
      if (history.size() == HISTORY) {
        history.removeFirst();
      }
      history.addLast(HistoryPoint.of(report));
      latest.set(report);
    }
  }

  /** The last report; null before the first. */
  StatsFile latest() {
    return latest.get();
  }

  /** The points of the reports kept taken after {@code since} (seconds since the epoch), oldest first. */
  List<HistoryPoint> historySince(double since) {
    synchronized (history) {
      return history.stream().filter(p -> p.time() > since).toList();
    }
  }
}
