package dev.crawler.frontier.internal;

import static com.google.common.base.Preconditions.checkState;

import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * Group commit: changes are staged, in the order the frontier decides them under its lock, into
 * one open batch; a caller that needs them durable waits outside that lock, and the first
 * waiter writes everything staged so far in one RocksDB write, for itself and for every
 * thread that staged before it. Each write-ahead-log write, a system call, then serves several
 * completions, and no write holds the frontier's lock.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>Batches reach the database in the order they were staged: staging appends to the open
 *       batch, and one write at a time ({@code commitLock}) takes the whole open batch.
 *   <li>{@link #awaitWritten} returns only once the batch holding that ticket is written
 *       (under the store's write options: WAL, and an fsync under {@code FSYNC}).
 *   <li>After a failed write nothing more is staged or written: the frontier's memory is
 *       ahead of the disk, and every waiter, current or later, gets the failure.
 * </ul>
 * Lock order: the frontier's lock, then {@code commitLock}, then {@code stageLock}. A writer
 * that does not hold the frontier's lock takes only the last two.
 */
public final class GroupCommit implements AutoCloseable {
  /** Adds one operation's changes to the open batch. */
  @FunctionalInterface
  public interface Changes {
    void addTo(WriteBatch batch) throws RocksDBException;
  }

  /** Writes a batch to the database. */
  @FunctionalInterface
  interface Sink {
    void write(WriteBatch batch) throws RocksDBException;
  }

  private final Sink sink;
  private final ReentrantLock commitLock = new ReentrantLock();
  private final Object stageLock = new Object();
  /** The batch being filled; guarded by stageLock. */
  private WriteBatch open = new WriteBatch();
  /** The ticket of {@code open}; guarded by stageLock. */
  private long openTicket = 1;
  /** Stages in {@code open}, not written; guarded by stageLock. */
  private int openStages;
  /** The batch that is not being filled, empty between writes; guarded by commitLock. */
  private WriteBatch spare = new WriteBatch();
  /** The last ticket handed out by {@link #stage}. */
  private volatile long lastStaged;
  /** Every ticket up to this one is written. */
  private volatile long written;
  private volatile RuntimeException failure;
  private boolean closed;
  /** Database writes made; guarded by commitLock. */
  private long writes;

  GroupCommit(Sink sink) {
    this.sink = sink;
  }

  /** Appends changes to the open batch; returns the ticket to wait for to know them durable. */
  long stage(Changes changes) {
    synchronized (stageLock) {
      checkUsable();
      try {
        changes.addTo(open);
      } catch (RocksDBException | RuntimeException e) {
        // Part of the changes may be in the batch: it can no longer be written whole.
        throw fail(e);
      }
      lastStaged = openTicket;
      openStages++;
      return openTicket;
    }
  }

  /** Returns once the batch holding {@code ticket} is written; writes it (and all staged with it) if nobody is. */
  void awaitWritten(long ticket) {
    if (written >= ticket) {
      return;
    }
    commitLock.lock();
    try {
      if (written >= ticket) {
        return;   // written by the thread that held the lock meanwhile: the group commit
      }
      checkUsable();
      WriteBatch batch;
      long batchTicket;
      synchronized (stageLock) {
        batch = open;
        batchTicket = openTicket;
        open = spare;
        openTicket++;
        openStages = 0;
      }
      try {
        sink.write(batch);
      } catch (RocksDBException | RuntimeException e) {
        throw fail(e);
      } finally {
        batch.clear();
        spare = batch;
      }
      writes++;
      written = batchTicket;
    } finally {
      commitLock.unlock();
    }
  }

  /** Operations staged and not yet taken by a write. */
  int unwrittenStages() {
    synchronized (stageLock) {
      return openStages;
    }
  }

  long lastStaged() {
    return lastStaged;
  }

  /** True once a write failed (the close's own included): what was staged since the last write is lost. */
  boolean failed() {
    return failure != null;
  }

  /** Writes everything staged so far; the frontier calls it before every read, so reads see every decided change. */
  void flush() {
    awaitWritten(lastStaged);
  }

  /** Database writes made so far; for tests and the benchmark. */
  long writes() {
    commitLock.lock();
    try {
      return writes;
    } finally {
      commitLock.unlock();
    }
  }

  private RuntimeException fail(Exception e) {
    if (failure == null) {
      failure = e instanceof RuntimeException r ? r
          : new IllegalStateException("frontier write failed: " + e.getMessage(), e);
    }
    return failure;
  }

  private void checkUsable() {
    if (failure != null) {
      throw new IllegalStateException("frontier stopped after a failed write; reopen it", failure);
    }
    checkState(!closed, "frontier store is closed");
  }

  /**
   * Writes what is staged (a failure to is logged by the caller, not thrown twice), then frees
   * the batches. A thread still waiting for a ticket staged before finds it written.
   */
  @Override
  public void close() {
    commitLock.lock();
    try {
      if (closed) {
        return;
      }
      try {
        if (failure == null) {
          flush();
        }
      } finally {
        closed = true;
        synchronized (stageLock) {
          open.close();
          spare.close();
        }
      }
    } finally {
      commitLock.unlock();
    }
  }
}
