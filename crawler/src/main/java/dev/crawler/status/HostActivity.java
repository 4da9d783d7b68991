package dev.crawler.status;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** What one host (one queue key) has done lately; updated by many fetch workers at once. */
final class HostActivity {
  final String hostKey;
  final LongAdder pages = new LongAdder();
  final LongAdder fetches = new LongAdder();
  final LongAdder fetchNanos = new LongAdder();
  final AtomicInteger failuresInARow = new AtomicInteger();
  volatile String lastError;

  HostActivity(String hostKey) {
    this.hostKey = hostKey;
  }

  HostFigures figures() {
    long n = fetches.sum();
    return new HostFigures(hostKey, pages.sum(), n, n == 0 ? 0 : fetchNanos.sum() / 1e9 / n, failuresInARow.get(),
        lastError);
  }

  /**
   * @param meanFetchSeconds over the fetches that made a request
   * @param failuresInARow failed visits since its last success
   */
  record HostFigures(String host, long pages, long fetches, double meanFetchSeconds, int failuresInARow,
      String lastError) {}
}
