import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads nginx access logs, one per crawler, and prints what the server saw: requests, pages
 * served, duplicate requests, requests to paths the host's robots.txt disallows, and the request
 * starts on the Crawl-delay host. A log line is "$msec $request_time $server_addr $status
 * $request_method $request_uri"; a request started at $msec - $request_time.
 *
 * <p>Run as a source file: java AccessLogTable.java ROBOTS_DIR DELAY_HOST NAME=LOG...
 * ROBOTS_DIR holds robots-ADDRESS.txt, each a single "User-agent: *" group of Disallow
 * prefixes and at most one Crawl-delay.
 */
public final class AccessLogTable {
    record Request(long startMillis, String host, int status, String uri) {}

    public static void main(String[] args) throws IOException {
        Path robotsDir = Path.of(args[0]);
        String delayHost = args[1];
        Map<String, List<String>> disallowed = readDisallowed(robotsDir);
        double crawlDelaySeconds = readCrawlDelay(robotsDir.resolve("robots-" + delayHost + ".txt"));
        long delayMillis = Math.round(crawlDelaySeconds * 1000);

        System.out.printf("%-13s %9s %9s %10s %11s %12s %14s %12s%n", "crawler", "requests", "200s",
                "duplicates", "disallowed", "delay-host", "smallest gap", "gaps < " + fmt(crawlDelaySeconds) + "s");
        for (int i = 2; i < args.length; i++) {
            String[] nameAndLog = args[i].split("=", 2);
            List<Request> requests = read(Path.of(nameAndLog[1]));
            long ok = requests.stream().filter(r -> r.status() == 200).count();
            Set<String> distinct = new HashSet<>();
            long duplicates = 0;
            long violations = 0;
            List<Long> delayHostStarts = new ArrayList<>();
            for (Request r : requests) {
                if (!distinct.add(r.host() + " " + r.uri())) {
                    duplicates++;
                }
                if (isDisallowed(disallowed.getOrDefault(r.host(), List.of()), r.uri())) {
                    violations++;
                }
                if (r.host().equals(delayHost)) {
                    delayHostStarts.add(r.startMillis());
                }
            }
            delayHostStarts.sort(null);
            long smallestGap = Long.MAX_VALUE;
            long shortGaps = 0;
            for (int j = 1; j < delayHostStarts.size(); j++) {
                long gap = delayHostStarts.get(j) - delayHostStarts.get(j - 1);
                smallestGap = Math.min(smallestGap, gap);
                if (gap < delayMillis) {
                    shortGaps++;
                }
            }
            String gapText = smallestGap == Long.MAX_VALUE ? "-" : smallestGap + " ms";
            System.out.printf("%-13s %9d %9d %10d %11d %12d %14s %12s%n", nameAndLog[0], requests.size(), ok,
                    duplicates, violations, delayHostStarts.size(), gapText,
                    shortGaps + " of " + Math.max(0, delayHostStarts.size() - 1));
        }
    }

    static List<Request> read(Path log) throws IOException {
        List<Request> requests = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            String[] f = line.split(" ");
            if (f.length < 6) {
                continue;
            }
            long end = Math.round(Double.parseDouble(f[0]) * 1000);
            long took = Math.round(Double.parseDouble(f[1]) * 1000);
            requests.add(new Request(end - took, f[2], Integer.parseInt(f[3]), f[5]));
        }
        return requests;
    }

    static Map<String, List<String>> readDisallowed(Path robotsDir) throws IOException {
        Map<String, List<String>> byHost = new HashMap<>();
        try (var files = Files.list(robotsDir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                if (!name.startsWith("robots-") || !name.endsWith(".txt")) {
                    continue;
                }
                String host = name.substring("robots-".length(), name.length() - ".txt".length());
                List<String> prefixes = new ArrayList<>();
                for (String line : Files.readAllLines(file)) {
                    String value = fieldValue(line, "disallow");
                    if (value != null && !value.isEmpty()) {
                        prefixes.add(value);
                    }
                }
                byHost.put(host, prefixes);
            }
        }
        return byHost;
    }

    static double readCrawlDelay(Path robots) throws IOException {
        for (String line : Files.readAllLines(robots)) {
            String value = fieldValue(line, "crawl-delay");
            if (value != null) {
                return Double.parseDouble(value);
            }
        }
        throw new IllegalArgumentException(robots + " has no Crawl-delay");
    }

    static String fieldValue(String line, String field) {
        int colon = line.indexOf(':');
        if (colon < 0 || !line.substring(0, colon).trim().equalsIgnoreCase(field)) {
            return null;
        }
        return line.substring(colon + 1).trim();
    }

    static boolean isDisallowed(List<String> prefixes, String uri) {
        return prefixes.stream().anyMatch(uri::startsWith);
    }

    static String fmt(double seconds) {
        return seconds == Math.rint(seconds) ? String.valueOf((long) seconds) : String.valueOf(seconds);
    }
}
