package dev.crawler.frontier.internal;

import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicBoolean;
import org.rocksdb.RocksDBException;

/**
 * Makes a store's writes fail on demand, as a full disk would, by wrapping its group commit's
 * write step (reflection: the step is private and final, and production code needs no seam).
 */
public final class FailingWrites {
  private final AtomicBoolean failing = new AtomicBoolean();

  private FailingWrites() {}

  public static FailingWrites in(FrontierStore store) throws ReflectiveOperationException {
    Field commitsField = FrontierStore.class.getDeclaredField("commits");
    commitsField.setAccessible(true);
    GroupCommit commits = (GroupCommit) commitsField.get(store);
    Field sinkField = GroupCommit.class.getDeclaredField("sink");
    sinkField.setAccessible(true);
    GroupCommit.Sink original = (GroupCommit.Sink) sinkField.get(commits);
    FailingWrites control = new FailingWrites();
    GroupCommit.Sink wrapped = batch -> {
      if (control.failing.get()) {
        throw new RocksDBException("While appending to file: No space left on device (simulated)");
      }
      original.write(batch);
    };
    sinkField.set(commits, wrapped);
    return control;
  }

  /** Every write from now on fails. */
  public void start() {
    failing.set(true);
  }
}
