package dev.crawler.frontier;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when a test moves it, so politeness tests never sleep. */
final class ManualClock implements InstantSource {
  private final AtomicLong millis;

  ManualClock(long startMillis) {
    this.millis = new AtomicLong(startMillis);
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }

  @Override
  public long millis() {
    return millis.get();
  }

  void advance(Duration d) {
    millis.addAndGet(d.toMillis());
  }

  void advanceMillis(long ms) {
    millis.addAndGet(ms);
  }
}
