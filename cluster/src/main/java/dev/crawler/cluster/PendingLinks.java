package dev.crawler.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The link sends of the visit running on this thread that the broker has not acknowledged
 * yet. A visit runs on one worker thread from its lease to its completion, and its links are
 * sent on that thread; its completion waits for them ({@link OwnedQueues#complete}) without
 * holding the worker: the URL leaves its queue only once its links are on the topic, so a
 * kill before that fetches it again rather than lose its links.
 */
final class PendingLinks {
  private final ThreadLocal<List<CompletableFuture<Void>>> sends = ThreadLocal.withInitial(ArrayList::new);

  void track(CompletableFuture<Void> send) {
    sends.get().add(send);
  }

  /** This thread's sends since the last call, as one future; null if there were none. */
  CompletableFuture<Void> drain() {
    List<CompletableFuture<Void>> mine = sends.get();
    if (mine.isEmpty()) {
      return null;
    }
    CompletableFuture<Void> all = CompletableFuture.allOf(mine.toArray(CompletableFuture[]::new));
    mine.clear();
    return all;
  }
}
