package dev.crawler.visit;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.robots.SimpleRobotRules;
import dev.crawler.robots.HostRobots;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class RobotsAppliedTest {
  private static final Instant T0 = Instant.parse("2025-05-01T12:00:00Z");

  /** The frontier's side: each host's delay now (absent: none), and every call made. */
  private final Map<String, Duration> delays = new ConcurrentHashMap<>();
  private final List<String> calls = new ArrayList<>();
  private final RobotsApplied applied = new RobotsApplied(new RobotsApplied.HostDelays() {
    @Override
    public void set(String hostKey, Duration crawlDelay) {
      calls.add("set " + hostKey + " " + crawlDelay.toSeconds());
      delays.put(hostKey, crawlDelay);
    }

    @Override
    public void clear(String hostKey) {
      calls.add("clear " + hostKey);
      delays.remove(hostKey);
    }
  }, null, false);

  private static HostRobots found(Integer delaySeconds, int secondsAfterT0) {
    return new HostRobots(HostRobots.Availability.FOUND, new SimpleRobotRules(),
        delaySeconds == null ? null : Duration.ofSeconds(delaySeconds), List.of(), T0.plusSeconds(secondsAfterT0), null);
  }

  private static HostRobots allowAll(int secondsAfterT0) {
    return new HostRobots(HostRobots.Availability.ALLOW_ALL, new SimpleRobotRules(), null, List.of(),
        T0.plusSeconds(secondsAfterT0), null);
  }

  private static HostRobots unavailable(int secondsAfterT0) {
    return new HostRobots(HostRobots.Availability.UNAVAILABLE,
        new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_NONE), null, List.of(), T0.plusSeconds(secondsAfterT0),
        "HTTP 503");
  }

  @Test
  void anOriginWithoutTheLineDoesNotUndoAnotherOriginsDelay() {
    applied.apply("a.com", "https://a.com:443", found(10, 0));
    applied.apply("a.com", "http://a.com:80", allowAll(1));   // http's robots.txt is a 404
    applied.apply("a.com", "https://a.com:443", found(10, 0));   // the same fetches again, turn about
    applied.apply("a.com", "http://a.com:80", allowAll(1));

    assertThat(delays).containsEntry("a.com", Duration.ofSeconds(10));
    assertThat(calls).containsExactly("set a.com 10");
  }

  @Test
  void aRobotsTxtFetchedAgainWithoutTheLineEndsItsDelay() {
    applied.apply("a.com", "https://a.com:443", found(10, 0));
    applied.apply("a.com", "https://a.com:443", found(null, 86_400));   // a day later, the line is gone

    assertThat(delays).doesNotContainKey("a.com");
    assertThat(calls).containsExactly("set a.com 10", "clear a.com");
  }

  @Test
  void theLargestDelayOfTheHostsOriginsHolds() {
    applied.apply("a.com", "http://a.com:80", found(5, 0));
    applied.apply("a.com", "https://a.com:443", found(20, 1));
    applied.apply("a.com", "https://a.com:443", found(null, 100));   // https drops its line: http's 5 s remain

    assertThat(calls).containsExactly("set a.com 5", "set a.com 20", "set a.com 5");
  }

  @Test
  void anOlderFetchAppliedAfterANewerOneIsIgnored() {
    HostRobots older = found(30, 0);
    HostRobots newer = found(null, 60);
    applied.apply("a.com", "https://a.com:443", newer);
    applied.apply("a.com", "https://a.com:443", older);   // a slow worker, holding the answer before

    assertThat(delays).doesNotContainKey("a.com");
  }

  @Test
  void anUnavailableRobotsTxtKeepsTheDelayItHad() {
    applied.apply("a.com", "https://a.com:443", found(10, 0));
    applied.apply("a.com", "https://a.com:443", unavailable(86_400));

    assertThat(delays).containsEntry("a.com", Duration.ofSeconds(10));
    assertThat(calls).containsExactly("set a.com 10");
  }

  @Test
  void aHostSeenFirstWithoutADelayIsClearedInCaseTheFrontierHoldsOneFromBefore() {
    delays.put("a.com", Duration.ofSeconds(10));   // set by the run before a resume
    applied.apply("a.com", "https://a.com:443", found(null, 0));
    applied.apply("b.com", "https://b.com:443", unavailable(0));   // says nothing: not cleared

    assertThat(calls).containsExactly("clear a.com");
  }
  @Test
  void aDelayFromBeforeAResumeIsClearedThoughTheFirstAnswerWasUnavailable() {
    delays.put("a.com", Duration.ofSeconds(10));   // set by the run before a resume
    applied.apply("a.com", "https://a.com:443", unavailable(0));
    applied.apply("a.com", "http://a.com:80", found(null, 1));   // another origin, without the line

    assertThat(delays).doesNotContainKey("a.com");
    assertThat(calls).containsExactly("clear a.com");
  }
}
