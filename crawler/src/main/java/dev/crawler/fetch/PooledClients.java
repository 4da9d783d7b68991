package dev.crawler.fetch;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;

/**
 * One OkHttp client per shard of hosts, all built from one client so they share its
 * dispatcher, threads and settings, each with its own connection pool; a host always uses the
 * same shard, so its connections are reused as with one pool.
 *
 * <p>Why: to reuse a connection, OkHttp scans every connection of the pool, locking each and
 * comparing its address ({@code RealConnectionPool.callAcquirePooledConnection}), on every
 * fetch; with hundreds of idle connections that scan shows in a profile of the crawl bench.
 * 16 pools make each scan a sixteenth as long.
 */
final class PooledClients {
  /** Pools of fewer idle connections than this are not split further. */
  static final int MIN_IDLE_PER_SHARD = 16;
  static final int MAX_SHARDS = 16;
  private static final long KEEP_ALIVE_MINUTES = 5;

  private final OkHttpClient[] shards;

  /** Splits {@code maxIdleConnections} over up to 16 pools of at least 16 each. */
  PooledClients(OkHttpClient.Builder settings, int maxIdleConnections) {
    checkArgument(maxIdleConnections >= 0, "Max idle connections (%s) must be >= 0", maxIdleConnections);
    int count = Math.clamp(maxIdleConnections / MIN_IDLE_PER_SHARD, 1, MAX_SHARDS);
    int idlePerShard = (maxIdleConnections + count - 1) / count;
    OkHttpClient first = settings
        .connectionPool(new ConnectionPool(idlePerShard, KEEP_ALIVE_MINUTES, TimeUnit.MINUTES))
        .build();
    shards = new OkHttpClient[count];
    shards[0] = first;
    for (int i = 1; i < count; i++) {
      shards[i] = first.newBuilder()
          .connectionPool(new ConnectionPool(idlePerShard, KEEP_ALIVE_MINUTES, TimeUnit.MINUTES))
          .build();
    }
  }

  /** The client whose pool holds {@code host}'s connections. */
  OkHttpClient forHost(String host) {
    return shards[Math.floorMod(host.hashCode(), shards.length)];
  }

  int shardCount() {
    return shards.length;
  }

  /** Connections handed to a call and not given back, over every pool. */
  int connectionsInUse() {
    int inUse = 0;
    for (OkHttpClient shard : shards) {
      ConnectionPool pool = shard.connectionPool();
      inUse += pool.connectionCount() - pool.idleConnectionCount();
    }
    return inUse;
  }

  /** Stops the shared dispatcher's threads and closes every idle connection. */
  void close() {
    shards[0].dispatcher().executorService().shutdown();
    for (OkHttpClient shard : shards) {
      shard.connectionPool().evictAll();
    }
  }
}
