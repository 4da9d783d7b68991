package dev.crawler.robots;

import java.util.Optional;

/**
 * Where {@link RobotsCache} keeps robots.txt answers beyond the hosts it holds in memory, by
 * the cache's host key ({@code scheme://host:port}). A store is a cache too: a lost or
 * unreadable entry only means one more robots.txt fetch, so it never throws.
 */
public interface RobotsStore extends AutoCloseable {
  /** A store that keeps nothing: every host that leaves the memory cache is fetched again. */
  RobotsStore NONE = new RobotsStore() {
    @Override
    public Optional<StoredRobots> get(String hostKey) {
      return Optional.empty();
    }

    @Override
    public void put(String hostKey, StoredRobots answer) {
    }

    @Override
    public void close() {
    }
  };

  /** The answer kept for the host, expired or not; empty if none, or if it cannot be read. */
  Optional<StoredRobots> get(String hostKey);

  /** Keeps the answer in place of the host's last one; a failure to is logged, not thrown. */
  void put(String hostKey, StoredRobots answer);

  @Override
  void close();
}
