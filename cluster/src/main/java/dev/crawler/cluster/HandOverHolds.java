package dev.crawler.cluster;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How long each host of a partition just taken must still wait before this node's first request
 * of it, as its last owner handed it over; and how long every host waits, when the last owner did
 * not hand over what it owed (it was killed, or cut off from the group). In this JVM's
 * {@link System#nanoTime}. Read-only once made: thread-safe.
 */
final class HandOverHolds {
  static final HandOverHolds NONE = new HandOverHolds(Map.of(), Long.MIN_VALUE);

  private final Map<String, Long> untilNanos;
  private final long everyHostUntilNanos;

  private HandOverHolds(Map<String, Long> untilNanos, long everyHostUntilNanos) {
    this.untilNanos = untilNanos;
    this.everyHostUntilNanos = everyHostUntilNanos;
  }

  /** Each host held its wait, and every host {@code everyHostMillis}, from {@code nowNanos}. */
  static HandOverHolds of(Map<String, Long> waitMillis, long everyHostMillis, long nowNanos) {
    Map<String, Long> until = new HashMap<>(waitMillis.size() * 2);
    waitMillis.forEach((host, millis) -> until.put(host, nowNanos + TimeUnit.MILLISECONDS.toNanos(millis)));
    return new HandOverHolds(until, everyHostMillis > 0 ? nowNanos + TimeUnit.MILLISECONDS.toNanos(everyHostMillis)
        : Long.MIN_VALUE);
  }

  /** What is left at {@code nowNanos} of the host's hold, in millis rounded up; 0 if nothing. */
  long remainingMillis(String hostKey, long nowNanos) {
    return millisLeft(Math.max(everyHostUntilNanos, untilNanos.getOrDefault(hostKey, Long.MIN_VALUE)), nowNanos);
  }

  /** What is left at {@code nowNanos} of the hold on every host; 0 if nothing. */
  long everyHostMillis(long nowNanos) {
    return millisLeft(everyHostUntilNanos, nowNanos);
  }

  /** The hosts whose own hold has some left at {@code nowNanos}, with what is left, for the next hand-over. */
  Map<String, Long> hostsStillHeld(long nowNanos) {
    Map<String, Long> held = new HashMap<>();
    untilNanos.forEach((host, until) -> {
      long left = millisLeft(until, nowNanos);
      if (left > 0) {
        held.put(host, left);
      }
    });
    return held;
  }

  private static long millisLeft(long untilNanos, long nowNanos) {
    if (untilNanos <= nowNanos) {
      return 0;
    }
    return TimeUnit.NANOSECONDS.toMillis(untilNanos - nowNanos + TimeUnit.MILLISECONDS.toNanos(1) - 1);
  }
}
