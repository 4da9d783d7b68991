package bench.peers;

import edu.uci.ics.crawler4j.crawler.CrawlConfig;
import edu.uci.ics.crawler4j.crawler.CrawlController;
import edu.uci.ics.crawler4j.crawler.Page;
import edu.uci.ics.crawler4j.crawler.WebCrawler;
import edu.uci.ics.crawler4j.fetcher.PageFetcher;
import edu.uci.ics.crawler4j.robotstxt.RobotstxtConfig;
import edu.uci.ics.crawler4j.robotstxt.RobotstxtServer;
import edu.uci.ics.crawler4j.url.WebURL;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Crawls the seeds' hosts with crawler4j 4.4.0 and prints "pages N" (pages handed to visit).
 * Arguments: seeds file, storage folder, workers, connections per host, politeness delay in ms,
 * page cap, user agent.
 */
public final class Crawler4jCrawl {
    // crawler4j's own example skips these: its parser also returns stylesheet, script and image links.
    private static final Pattern NOT_PAGES =
            Pattern.compile(".*\\.(css|js|json|png|gif|jpe?g|svg|ico|woff2?|ttf|zip|gz|pdf|txt)$");

    static final AtomicLong PAGES = new AtomicLong();
    static Set<String> seedHosts;

    public static final class SameHosts extends WebCrawler {
        @Override
        public boolean shouldVisit(Page referringPage, WebURL url) {
            String href = url.getURL().toLowerCase();
            return !NOT_PAGES.matcher(href).matches() && seedHosts.contains(hostAndPort(href));
        }

        @Override
        public void visit(Page page) {
            PAGES.incrementAndGet();
        }
    }

    public static void main(String[] args) throws Exception {
        List<String> seeds = Files.readAllLines(Path.of(args[0])).stream()
                .map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toList());
        seedHosts = seeds.stream().map(Crawler4jCrawl::hostAndPort).collect(Collectors.toSet());

        CrawlConfig config = new CrawlConfig();
        config.setCrawlStorageFolder(args[1]);
        int workers = Integer.parseInt(args[2]);
        config.setMaxConnectionsPerHost(Integer.parseInt(args[3]));
        config.setMaxTotalConnections(Math.max(workers, Integer.parseInt(args[3])));
        config.setPolitenessDelay(Integer.parseInt(args[4]));
        config.setMaxPagesToFetch(Integer.parseInt(args[5]));
        config.setUserAgentString(args[6]);
        config.setMaxDepthOfCrawling(-1);
        config.setIncludeBinaryContentInCrawling(false);
        config.setResumableCrawling(false);
        // Its defaults wait 10 s three times at the end of every crawl; a short wait keeps wall time about crawling.
        config.setThreadMonitoringDelaySeconds(1);
        config.setThreadShutdownDelaySeconds(1);
        config.setCleanupDelaySeconds(1);

        PageFetcher fetcher = new PageFetcher(config);
        RobotstxtConfig robots = new RobotstxtConfig();
        robots.setUserAgentName(args[6]);
        CrawlController controller = new CrawlController(config, fetcher, new RobotstxtServer(robots, fetcher));
        for (String seed : seeds) {
            controller.addSeed(seed);
        }
        controller.start(SameHosts.class, workers);
        System.out.println("pages " + PAGES.get());
        System.exit(0);
    }

    static String hostAndPort(String url) {
        URI uri = URI.create(url);
        return uri.getHost() + ":" + uri.getPort();
    }
}
