package bench.peers;

import com.digitalpebble.stormcrawler.Constants;
import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.bolt.FetcherBolt;
import com.digitalpebble.stormcrawler.bolt.JSoupParserBolt;
import com.digitalpebble.stormcrawler.bolt.URLPartitionerBolt;
import com.digitalpebble.stormcrawler.indexing.DummyIndexer;
import com.digitalpebble.stormcrawler.persistence.MemoryStatusUpdater;
import com.digitalpebble.stormcrawler.persistence.Status;
import com.digitalpebble.stormcrawler.spout.MemorySpout;
import com.digitalpebble.stormcrawler.util.ConfUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.Utils;

/**
 * Crawls the seeds with StormCrawler 2.4's usual topology (memory spout, partitioner, fetcher,
 * jsoup parser, indexer, memory status updater) on a Storm LocalCluster in this JVM. StormCrawler
 * has no page cap, so this stops the process once the cap's pages are FETCHED (fetched, parsed and
 * through the indexer), or once none is for the idle time (the site is exhausted). Prints "pages N".
 * Arguments: seeds file, fetcher threads, threads per host, server delay in seconds, page cap,
 * user agent, idle seconds.
 */
public final class StormCrawlerCrawl {
    static final AtomicLong FETCHED = new AtomicLong();
    static final int PARSERS = 4;
    static final long STARTUP_MILLIS = 300_000;
    // URLs in flight between the spout and the status updater: enough to keep every fetch thread busy.
    static final int MAX_SPOUT_PENDING = 1000;

    /** The memory status updater, counting pages that reach FETCHED. */
    public static final class CountingStatusUpdater extends MemoryStatusUpdater {
        @Override
        public void store(String url, Status status, Metadata metadata, Optional<Date> nextFetch, Tuple t)
                throws Exception {
            if (status == Status.FETCHED) {
                FETCHED.incrementAndGet();
            }
            super.store(url, status, metadata, nextFetch, t);
        }
    }

    public static void main(String[] args) throws Exception {
        List<String> seeds = Files.readAllLines(Path.of(args[0])).stream()
                .map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toList());
        int threads = Integer.parseInt(args[1]);
        int perHost = Integer.parseInt(args[2]);
        double delaySeconds = Double.parseDouble(args[3]);
        long cap = Long.parseLong(args[4]);
        String agent = args[5];
        long idleMillis = Long.parseLong(args[6]) * 1000;

        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new MemorySpout(seeds.toArray(new String[0])));
        builder.setBolt("partitioner", new URLPartitionerBolt()).shuffleGrouping("spout");
        builder.setBolt("fetch", new FetcherBolt()).fieldsGrouping("partitioner", new Fields("key"));
        // One parser keeps up with a fetcher only on a slow site: parsing gets several executors.
        builder.setBolt("parse", new JSoupParserBolt(), PARSERS).localOrShuffleGrouping("fetch");
        builder.setBolt("index", new DummyIndexer(), PARSERS).localOrShuffleGrouping("parse");
        Fields url = new Fields("url");
        builder.setBolt("status", new CountingStatusUpdater())
                .fieldsGrouping("fetch", Constants.StatusStreamName, url)
                .fieldsGrouping("parse", Constants.StatusStreamName, url)
                .fieldsGrouping("index", Constants.StatusStreamName, url);

        // StormCrawler's defaults, as its ConfigurableTopology loads them; the bench's settings on top.
        Config conf = new Config();
        conf.putAll(ConfUtils.extractConfigElement(Utils.findAndReadConfigFile("crawler-default.yaml", true)));
        conf.put("http.agent.name", agent);
        conf.put("http.agent.version", "");
        conf.put("http.agent.description", "");
        conf.put("http.agent.url", "");
        conf.put("http.agent.email", "");
        conf.put("fetcher.threads.number", threads);
        conf.put("fetcher.threads.per.queue", perHost);
        conf.put("fetcher.server.delay", delaySeconds);
        conf.put("fetcher.server.min.delay", delaySeconds);
        conf.put("fetcher.queue.mode", "byHost");
        conf.put("partition.url.mode", "byHost");
        conf.put("http.content.limit", 10 * 1024 * 1024);
        conf.put("urlfilters.config.file", "bench-urlfilters.json");
        // Its default cache of 10,000 URLs forgets what it saw on larger crawls and fetches pages twice.
        conf.put("status.updater.cache.spec", "maximumSize=1000000,expireAfterAccess=1h");
        conf.put("metadata.track.path", false);
        conf.put("topology.message.timeout.secs", 600);
        conf.put("topology.max.spout.pending", MAX_SPOUT_PENDING);
        conf.setNumWorkers(1);

        LocalCluster cluster = new LocalCluster();
        cluster.submitTopology("crawl", conf, builder.createTopology());
        // The idle time counts from the first page: a LocalCluster on a busy machine starts slowly.
        long lastCount = 0;
        long lastChange = System.currentTimeMillis();
        long startLimit = lastChange + STARTUP_MILLIS;
        while (true) {
            Thread.sleep(200);
            long now = System.currentTimeMillis();
            long count = FETCHED.get();
            if (count != lastCount) {
                lastCount = count;
                lastChange = now;
            }
            boolean idle = count > 0 ? now - lastChange >= idleMillis : now >= startLimit;
            if (count >= cap || idle) {
                break;
            }
        }
        System.out.println("pages " + FETCHED.get());
        System.out.flush();
        // A LocalCluster takes many seconds to shut down; the crawl's work is done.
        Runtime.getRuntime().halt(0);
    }
}
