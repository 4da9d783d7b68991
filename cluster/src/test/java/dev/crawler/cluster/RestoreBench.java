package dev.crawler.cluster;

import dev.crawler.cluster.broker.KraftBroker;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.frontier.FetchOutcome;
import dev.crawler.frontier.FrontierOptions;
import dev.crawler.intake.AdmittedUrl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * How long a node given a partition it never held takes to rebuild it: N URL records (and a
 * done record for every fourth URL) produced to one partition of a real broker, then replayed
 * into a fresh {@link PartitionState} (done first, then URLs: seen, minus done, queued). Prints
 * the records a second and the time 10^7 URLs of a partition would take at that rate.
 *
 * <p>Arguments: URLs (200,000), hosts they are spread over (2,000).
 */
public final class RestoreBench {
  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    int hosts = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
    Path dir = Files.createTempDirectory("restore-bench");
    long started = System.nanoTime();
    try (KraftBroker broker = KraftBroker.startFresh(dir.resolve("broker"))) {
      System.out.printf(Locale.ROOT, "broker started in %.1f s%n", seconds(started));
      Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers());
      ClusterTopics topics = new ClusterTopics("restore", 1);
      try (Admin admin = Admin.create(client)) {
        topics.ensure(admin, (short) 1, Duration.ofSeconds(30));
      }
      List<AdmittedUrl> urls = PartitionFixtures.urlsOf(0, 1, hosts, n);
      List<DoneRecord> done = new ArrayList<>();
      for (int i = 0; i < n; i += 4) {
        done.add(DoneRecord.of(urls.get(i).queueKey(), urls.get(i).url().url(), FetchOutcome.Kind.FETCHED));
      }
      long producing = System.nanoTime();
      try (UrlTopicProducer producer = new UrlTopicProducer(topics, client, "lz4");
          DoneTopicProducer completions = new DoneTopicProducer(topics, client, "lz4")) {
        for (int i = 0; i < n; i += 1_000) {
          producer.take(urls.subList(i, Math.min(n, i + 1_000)));
        }
        for (int i = 0; i < done.size(); i += 1_000) {
          completions.take(done.subList(i, Math.min(done.size(), i + 1_000)));
        }
      }
      System.out.printf(Locale.ROOT, "produced %,d URL and %,d done records over %,d hosts in %.1f s%n", n,
          done.size(), hosts, seconds(producing));

      // Sized as a partition of a large crawl would be; the frontier's caches at their defaults.
      PartitionState.Options options = new PartitionState.Options(10_000_000, 0.01,
          UrlSeenService.FalsePositivePolicy.VERIFY, 1 << 20, 64L << 20, FrontierOptions.defaults(), false);
      Path state = dir.resolve("partition-0");
      long replaying = System.nanoTime();
      PartitionReplay.Replayed replayed;
      try (PartitionState fresh = PartitionState.open(state, 0, options);
          PartitionReplay replay = new PartitionReplay(topics, client)) {
        replayed = replay.catchUp(fresh);
      }
      double took = seconds(replaying);
      long records = replayed.doneRecords() + replayed.urlRecords();
      double urlsPerSecond = replayed.urlRecords() / took;
      System.out.printf(Locale.ROOT, "replayed %,d done and %,d URL records (%,d queued) in %.1f s, closed included%n",
          replayed.doneRecords(), replayed.urlRecords(), replayed.queued(), took);
      System.out.printf(Locale.ROOT, "| URLs | done | replay s | URLs/s | records/s | 10^7 URLs would take |%n");
      System.out.printf(Locale.ROOT, "| ---: | ---: | ---: | ---: | ---: | ---: |%n");
      System.out.printf(Locale.ROOT, "| %,d | %,d | %.1f | %,.0f | %,.0f | %.1f min |%n", replayed.urlRecords(),
          replayed.doneRecords(), took, urlsPerSecond, records / took, 1e7 / urlsPerSecond / 60);

      long reopening = System.nanoTime();
      try (PartitionState again = PartitionState.open(state, 0, options)) {
        System.out.printf(Locale.ROOT, "reopened from its checkpoint %s in %.2f s%n", again.checkpoint(),
            seconds(reopening));
      }
    }
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }
}
