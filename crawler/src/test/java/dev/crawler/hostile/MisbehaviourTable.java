package dev.crawler.hostile;

import java.util.ArrayList;
import java.util.List;

/**
 * misbehaviours.csv as the Markdown table crawler/README.md's "A hostile web" section quotes
 * between the {@link #START} and {@link #END} markers; {@link HostileWebTest} keeps the two equal.
 */
final class MisbehaviourTable {
  static final String START = "<!-- hostile-web:start (generated from crawler/src/test/resources/dev/crawler/hostile/misbehaviours.csv) -->";
  static final String END = "<!-- hostile-web:end -->";

  private MisbehaviourTable() {}

  /** @param csvLines misbehaviours.csv, line by line */
  static String render(List<String> csvLines) {
    List<String> out = new ArrayList<>();
    out.add("One crawl of a loopback site whose seed page links to every case below (each on a host of its own), with");
    out.add("fetch.timeouts read 5s / total 10s, fetch.max-content-bytes 1MB, crawl.limits.max-depth 6 and");
    out.add("politeness.max-crawl-delay 300ms. It ends on its own (FINISHED), every case gets the outcome shown, every line");
    out.add("of the crawl log is counted in the stats, no failure is logged with a stack trace, and every host that still");
    out.add("answers has its next page fetched after the misbehaviour. Retries: a URL is put back at most 5 times (429/503,");
    out.add("robots.txt unavailable), then given up.");
    out.add("");
    out.add("| misbehaviour | crawl-log outcome | detail in the crawl log | also checked |");
    out.add("|---|---|---|---|");
    boolean header = true;
    for (String line : csvLines) {
      if (line.isBlank()) {
        continue;
      }
      if (line.startsWith("#")) {
        if (!header) {
          out.add("| **" + line.substring(1).strip().replace("|", "\\|") + "** | | | |");
        }
        continue;
      }
      if (header) {
        header = false;
        continue;
      }
      String[] c = line.split("\\|");
      String detail = c[3].strip().equals("-") ? "" : "`" + c[3].strip() + "`";
      String checked = c[5].strip().equals("-") ? "" : c[5].strip();
      out.add("| " + c[0].strip() + " | " + c[2].strip() + " | " + detail + " | " + checked + " |");
    }
    out.add("| **Private addresses (a crawl of its own with `scope.allow-private-addresses: false`)** | | | |");
    out.add("| a name that resolves to 10.0.0.7, 169.254.169.254 or 127.0.0.1, and those IP literals"
        + " | PRIVATE_ADDRESS (robots.txt line), then ROBOTS_UNAVAILABLE | `PRIVATE_ADDRESS: ...; given up after "
        + HostileWebTest.MAX_RETRIES + " retries` | no connection is made |");
    return String.join("\n", out) + "\n";
  }
}
