package dev.crawler.cluster;

import static com.google.common.base.Preconditions.checkArgument;

import java.time.Duration;

/**
 * Whether a node still hears from its group's coordinator, told from how many of its heartbeats
 * were answered so far. Silence for {@code pauseAfter} means the group may soon give this node's
 * partitions to another node without a hand-over (a network split, a broker out of reach); a
 * node learns it lost them only when it hears from the group again, so it has to stop fetching
 * before that, on its own. One answered heartbeat ends the silence.
 */
final class GroupSilence {
  /** What an observation changed. */
  enum Change { NONE, PAUSE, RESUME }

  private final long pauseAfterNanos;
  private double answered = Double.NaN;
  private long heardAt;
  private boolean paused;

  /** @param startNanos when the node started: silence is counted from there until its first answer */
  GroupSilence(Duration pauseAfter, long startNanos) {
    checkArgument(pauseAfter.isPositive(), "pauseAfter (%s) must be positive", pauseAfter);
    this.pauseAfterNanos = pauseAfter.toNanos();
    this.heardAt = startNanos;
  }

  /** @param answeredNow the heartbeats answered so far, a count that only grows */
  Change observe(double answeredNow, long nowNanos) {
    if (answeredNow != answered) {
      if (!Double.isNaN(answered) || answeredNow > 0) {
        heardAt = nowNanos;   // not the first look at a count still 0: that is no answer yet
      }
      answered = answeredNow;
      if (paused) {
        paused = false;
        return Change.RESUME;
      }
      return Change.NONE;
    }
    if (!paused && nowNanos - heardAt >= pauseAfterNanos) {
      paused = true;
      return Change.PAUSE;
    }
    return Change.NONE;
  }

  /** How long since the last answer (or the start), as of {@code nowNanos}. */
  Duration silence(long nowNanos) {
    return Duration.ofNanos(nowNanos - heardAt);
  }

  boolean paused() {
    return paused;
  }
}
