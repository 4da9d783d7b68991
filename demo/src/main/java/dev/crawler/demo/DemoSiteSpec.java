package dev.crawler.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a {@link DemoSite} serves: its hosts, and the shape of its pages. Everything the site
 * serves is a function of this spec and the port, so two sites of one spec serve the same
 * bytes.
 *
 * @param hosts the virtual hosts, in order; names are unique
 * @param seed mixed into every page's generator: another seed gives other links and text
 * @param linksPerPage {@code <a href>} elements on each page; real documentation pages average
 *     about 78
 * @param pageBytes approximate size of each page's HTML; real documentation pages average
 *     about 19 KB. A page is never cut short of its links, so with many links and few bytes
 *     pages come out larger
 */
public record DemoSiteSpec(List<DemoHost> hosts, long seed, int linksPerPage, int pageBytes) {

  public static final long DEFAULT_SEED = 20240601L;
  public static final int DEFAULT_LINKS_PER_PAGE = 78;
  public static final int DEFAULT_PAGE_BYTES = 19_000;
  /** Fewest links per page: the home link, the parent and the children that make every page reachable. */
  public static final int MIN_LINKS_PER_PAGE = LinkGraph.FIXED_LINKS;

  public DemoSiteSpec {
    hosts = List.copyOf(hosts);
    if (hosts.isEmpty()) {
      throw new IllegalArgumentException("A demo site needs at least one host");
    }
    Set<String> names = new HashSet<>();
    for (DemoHost host : hosts) {
      if (!names.add(host.name())) {
        throw new IllegalArgumentException("Host " + host.name() + " is listed twice");
      }
    }
    if (hosts.stream().noneMatch(DemoHost::seed)) {
      throw new IllegalArgumentException("At least one host must be a seed; none of " + names + " is");
    }
    if (linksPerPage < MIN_LINKS_PER_PAGE) {
      throw new IllegalArgumentException("Links per page (" + linksPerPage + ") must be >= " + MIN_LINKS_PER_PAGE);
    }
    if (pageBytes < 0) {
      throw new IllegalArgumentException("Page bytes (" + pageBytes + ") must be >= 0");
    }
  }

  /** Hosts with default page shape and seed. */
  public DemoSiteSpec(List<DemoHost> hosts) {
    this(hosts, DEFAULT_SEED, DEFAULT_LINKS_PER_PAGE, DEFAULT_PAGE_BYTES);
  }

  /**
   * The demo: three seed hosts and one that only links reach. A crawl with a 0-50 ms delay
   * ends in about 15 s, bound by slow.example.com (15 requests, 1 s apart).
   * <ul>
   *   <li>www.example.com: 120 pages, Disallow /private/, a sitemap with 3 orphan pages
   *   <li>docs.example.com: 80 pages, Disallow /search (its links carry a query)
   *   <li>slow.example.com: 10 pages, Crawl-delay 1 s
   *   <li>www.example.org: 20 pages, not a seed: in scope only for a crawl that leaves example.com
   * </ul>
   */
  public static DemoSiteSpec demo() {
    return new DemoSiteSpec(List.of(
        new DemoHost("www.example.com", 120, null, List.of("/private/"), true),
        new DemoHost("docs.example.com", 80, null, List.of("/search"), false),
        new DemoHost("slow.example.com", 10, Duration.ofSeconds(1), List.of(), false),
        new DemoHost("www.example.org", 20, null, List.of(), false, false)));
  }

  /** Plain seed hosts site-1.example.com ... site-N.example.com, for benchmarks and big tests. */
  public static DemoSiteSpec generated(int hosts, int pagesPerHost) {
    if (hosts < 1) {
      throw new IllegalArgumentException("Hosts (" + hosts + ") must be >= 1");
    }
    List<DemoHost> list = new ArrayList<>(hosts);
    for (int i = 1; i <= hosts; i++) {
      list.add(DemoHost.plain("site-" + i + ".example.com", pagesPerHost));
    }
    return new DemoSiteSpec(list);
  }

  public DemoSiteSpec withSeed(long newSeed) {
    return new DemoSiteSpec(hosts, newSeed, linksPerPage, pageBytes);
  }

  public DemoSiteSpec withPageShape(int newLinksPerPage, int newPageBytes) {
    return new DemoSiteSpec(hosts, seed, newLinksPerPage, newPageBytes);
  }

  /** Total pages over all hosts. */
  public int totalPages() {
    return hosts.stream().mapToInt(DemoHost::pages).sum();
  }
}
