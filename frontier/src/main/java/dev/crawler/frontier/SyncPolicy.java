package dev.crawler.frontier;

/** How far an accepted URL is made durable before {@code offer} returns. */
public enum SyncPolicy {
  /** Written to the write-ahead log, not forced to disk: survives a killed process (kill -9), not a power cut. */
  WAL,
  /** Written to the write-ahead log and forced to disk (fsync) on every write: survives a power cut too. */
  FSYNC
}
