package dev.crawler.status;

import dev.crawler.stats.StatsFile;
import java.util.List;

/**
 * What {@code /status.json} answers and the page draws: the last report, the points since the
 * page's last poll, the host lists, and what the crawl is.
 *
 * @param time when this document was made, ISO-8601 UTC
 * @param report the stats reporter's last report, as stats.json holds it; null before the first
 * @param history points of the reports after the {@code since} asked for, oldest first
 * @param suspendAfter failures in a row that suspend a host
 * @param config the effective configuration as YAML
 */
record StatusDocument(String version, String startedAt, double uptimeSeconds, String time, String dataDir,
    StatsFile report, List<HistoryPoint> history, HostBoard.Board hosts, int suspendAfter, String config) {}
