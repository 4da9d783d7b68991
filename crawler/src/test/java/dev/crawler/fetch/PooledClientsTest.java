package dev.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

class PooledClientsTest {
  @Test
  void splitsTheIdleBudgetIntoPoolsOfAtLeastSixteenAndAtMostSixteenPools() {
    assertThat(new PooledClients(new OkHttpClient.Builder(), 0).shardCount()).isEqualTo(1);
    assertThat(new PooledClients(new OkHttpClient.Builder(), 31).shardCount()).isEqualTo(1);
    assertThat(new PooledClients(new OkHttpClient.Builder(), 64).shardCount()).isEqualTo(4);
    assertThat(new PooledClients(new OkHttpClient.Builder(), 256).shardCount()).isEqualTo(16);
    assertThat(new PooledClients(new OkHttpClient.Builder(), 10_000).shardCount()).isEqualTo(16);
  }

  @Test
  void aHostAlwaysGetsTheSameClientAndTheClientsShareOneDispatcher() {
    PooledClients clients = new PooledClients(new OkHttpClient.Builder(), 256);
    Set<OkHttpClient> used = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      String host = "host-" + i + ".example";
      OkHttpClient client = clients.forHost(host);
      assertThat(clients.forHost(host)).isSameAs(client);
      assertThat(client.dispatcher()).isSameAs(clients.forHost("a.example").dispatcher());
      used.add(client);
    }
    assertThat(used).as("200 hosts spread over the pools").hasSize(16);
    assertThat(used.stream().map(OkHttpClient::connectionPool).distinct()).hasSize(16);
    clients.close();
  }
}
