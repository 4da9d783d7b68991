package dev.crawler.visit;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One robots.txt lookup at a time per queue, and requests of a queue held back while one runs.
 * A queue of several hosts (by domain or address) learns its Crawl-delay from any of their
 * robots.txt files; a page of one host fetched while another host's robots.txt is being read
 * could go out just after that file asked for a delay. Lookups of other queues go on side by side.
 */
final class RobotsLookups {
  /** How often a waiting visit looks whether the crawl's stop has aborted it. */
  private static final long ABORT_CHECK_MILLIS = 100;

  private final ConcurrentHashMap<String, CountDownLatch> running = new ConcurrentHashMap<>();

  /**
   * Runs {@code lookup} (a robots.txt lookup and what is learnt from it) once no other lookup of
   * the queue runs; returns null, without running it, if {@code aborted} turns true meanwhile.
   */
  <T> T exclusively(String queueKey, BooleanSupplier aborted, Supplier<T> lookup) {
    CountDownLatch mine = new CountDownLatch(1);
    while (true) {
      CountDownLatch other = running.putIfAbsent(queueKey, mine);
      if (other == null) {
        break;
      }
      if (!await(other, aborted)) {
        return null;
      }
    }
    try {
      return lookup.get();
    } finally {
      running.remove(queueKey, mine);
      mine.countDown();
    }
  }

  /** Waits until no robots.txt lookup of the queue runs; false if {@code aborted} turned true first. */
  boolean awaitNone(String queueKey, BooleanSupplier aborted) {
    CountDownLatch other;
    while ((other = running.get(queueKey)) != null) {
      if (!await(other, aborted)) {
        return false;
      }
    }
    return true;
  }

  private static boolean await(CountDownLatch latch, BooleanSupplier aborted) {
    try {
      while (!latch.await(ABORT_CHECK_MILLIS, TimeUnit.MILLISECONDS)) {
        if (aborted.getAsBoolean()) {
          return false;
        }
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
