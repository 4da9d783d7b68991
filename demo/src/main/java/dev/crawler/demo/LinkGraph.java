package dev.crawler.demo;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * The site's structure, and the only place that decides it: which URLs exist on each host,
 * what each page links to, where each redirect goes, and what a correct crawl requests. The
 * server renders pages from {@link #links} and routes requests with {@link #route}, and
 * {@link #expectedFetches} walks the same two, so the site and the oracle cannot disagree.
 *
 * <p>URL layout of a host: page 0 is "/", page n is "/docs/{section}/page-n.html";
 * "/go/n" redirects (301) to a page; "/missing/n" is 404; "/error" is 500; a path under a
 * robots.txt Disallow prefix is a small 200 page that a polite crawl never sees.
 *
 * <p>Reachability: pages form a tree of {@value #BRANCHING} children per page (page n's
 * children are n*B+1 .. n*B+B), so every linked page is at most log_B(pages) hops from the
 * home page; the other links are spread at random over the host and the site. A host with a
 * sitemap keeps its last pages out of every link (orphans), so they are reachable only
 * through the sitemap. Immutable and thread-safe.
 */
final class LinkGraph {

  /** Children per page in the tree that makes every linked page reachable from the home page. */
  static final int BRANCHING = 8;
  /** Links every page must have room for: home, parent, children. */
  static final int FIXED_LINKS = 2 + BRANCHING;
  /** Top-level links in the nav bar, after the home link: pages 1..NAV_PAGES. */
  static final int NAV_PAGES = 5;
  /** Path sections; page n lives in SECTIONS[n % SECTIONS.length]. */
  static final String[] SECTIONS = {"intro", "install", "config", "api", "guides", "reference", "faq", "tutorial"};
  /** Query parameters a crawler strips (they are in the crawler's default normalize.strip-parameters). */
  static final String[] TRACKING = {"utm_source=newsletter", "utm_medium=email", "utm_campaign=launch",
      "utm_source=twitter&utm_medium=social", "utm_content=sidebar"};

  /** What a link is for; the renderer places and labels links by kind. */
  enum Kind {
    HOME, NAV, PARENT, CHILD,
    /** A page of the same host, picked at random. */
    PAGE,
    /** A page of the same host with utm_* parameters that normalization strips. */
    TRACKING,
    /** A page of the same host with a #fragment. */
    FRAGMENT,
    /** "#top": the page itself. */
    SELF_FRAGMENT,
    /** The page itself with ?view=print (kept by normalization) and a tracking parameter (stripped). */
    PRINT,
    /** /go/n, a 301 to a page; many pages share each n. */
    REDIRECT,
    /** /missing/n, a 404. */
    MISSING,
    /** /error, a 500. */
    ERROR,
    /** A URL under one of the host's robots.txt Disallow prefixes. */
    DISALLOWED,
    /** An absolute link to a page of another host of the site. */
    OTHER_HOST,
    MAILTO,
    JAVASCRIPT
  }

  /**
   * One {@code <a href>} of a page.
   *
   * @param host index of the host the link points to (the page's own host for relative links)
   * @param page the page id the link points to, -1 if it is not a page
   * @param target path and query as a crawler requests it after normalization (fragment and
   *     tracking parameters dropped); null for mailto: and javascript: links
   * @param href the link as written in the HTML (before entity escaping); null in links made
   *     only for their targets (the crawl oracle)
   */
  record Link(Kind kind, int host, int page, String target, String href) {}

  /** What the server does with one request target. */
  enum RouteKind { PAGE, REDIRECT, ERROR, ROBOTS, SITEMAP, DISALLOWED, NOT_FOUND }

  /** @param id the page id for PAGE, the n of /go/n for REDIRECT, else -1 */
  record Route(RouteKind kind, int id) {}

  private static final long SALT_LINKS = 0x4c494e4bL;
  private static final long SALT_REDIRECT = 0x474f544fL;

  private final DemoSiteSpec spec;
  private final int port;
  private final List<DemoHost> hosts;
  private final Map<String, Integer> hostIndex = new HashMap<>();
  private final String[] origins;
  private final int[] seedHosts;
  private final int[] nonSeedHosts;
  /** Paths of page ids, shared by all hosts: links name pages by path on every request. */
  private final String[] paths;

  private static final int CACHED_PATHS = 1 << 16;

  LinkGraph(DemoSiteSpec spec, int port) {
    this.spec = spec;
    this.port = port;
    this.hosts = spec.hosts();
    this.origins = new String[hosts.size()];
    List<Integer> seeds = new ArrayList<>();
    List<Integer> others = new ArrayList<>();
    for (int h = 0; h < hosts.size(); h++) {
      DemoHost host = hosts.get(h);
      hostIndex.put(host.name(), h);
      origins[h] = "http://" + host.name() + ":" + port;
      (host.seed() ? seeds : others).add(h);
    }
    this.seedHosts = seeds.stream().mapToInt(Integer::intValue).toArray();
    this.nonSeedHosts = others.stream().mapToInt(Integer::intValue).toArray();
    int maxPages = hosts.stream().mapToInt(DemoHost::pages).max().orElse(0);
    this.paths = new String[Math.min(maxPages, CACHED_PATHS)];
    for (int id = 0; id < paths.length; id++) {
      paths[id] = pagePath(id);
    }
  }

  DemoSiteSpec spec() {
    return spec;
  }

  int port() {
    return port;
  }

  int hostCount() {
    return hosts.size();
  }

  DemoHost host(int h) {
    return hosts.get(h);
  }

  /** The host's index, -1 if the site has no such host. */
  int hostIndex(String name) {
    return hostIndex.getOrDefault(name, -1);
  }

  /** "http://name:port" */
  String origin(int h) {
    return origins[h];
  }

  String url(int h, String target) {
    return origins[h] + target;
  }

  // ---------------------------------------------------------------- per-host numbers

  /** Pages only the sitemap reaches: the last pages of a host with a sitemap, about 1 in 40. */
  int orphans(int h) {
    DemoHost host = hosts.get(h);
    return host.sitemap() && host.pages() >= 2 ? Math.max(1, host.pages() / 40) : 0;
  }

  /** Pages 0 .. linkedPages-1 are linked from other pages; the rest are orphans. */
  int linkedPages(int h) {
    return hosts.get(h).pages() - orphans(h);
  }

  /** Distinct /go/n URLs: few, so that many pages point at each. */
  int redirects(int h) {
    return Math.max(1, linkedPages(h) / 20);
  }

  /** Distinct /missing/n URLs linked from pages. */
  int missingPages(int h) {
    return Math.max(1, linkedPages(h) / 40);
  }

  /** The page /go/n redirects to: a linked page of the same host. */
  int redirectTarget(int h, int n) {
    return new SplittableRandom(mix(h, n, SALT_REDIRECT)).nextInt(linkedPages(h));
  }

  static String pagePath(int id) {
    return id == 0 ? "/" : "/docs/" + SECTIONS[id % SECTIONS.length] + "/page-" + id + ".html";
  }

  /** {@link #pagePath}, from a table for the first {@value #CACHED_PATHS} ids (about 60 bytes each). */
  String path(int id) {
    return id < paths.length ? paths[id] : pagePath(id);
  }

  /** Paths the sitemap lists: every page of the host, orphans included. */
  List<String> sitemapPaths(int h) {
    int pages = hosts.get(h).pages();
    List<String> paths = new ArrayList<>(pages);
    for (int id = 0; id < pages; id++) {
      paths.add(path(id));
    }
    return paths;
  }

  /** Whether robots.txt disallows a path and query, by plain prefix as RFC 9309 matches it. */
  boolean disallowed(int h, String target) {
    for (String prefix : hosts.get(h).disallow()) {
      if (target.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- routing

  /** What the server serves for a request target (path and optional query) on host h. */
  Route route(int h, String target) {
    int q = target.indexOf('?');
    String path = q < 0 ? target : target.substring(0, q);
    if (path.equals("/robots.txt")) {
      return new Route(RouteKind.ROBOTS, -1);
    }
    if (path.equals("/sitemap.xml") && hosts.get(h).sitemap()) {
      return new Route(RouteKind.SITEMAP, -1);
    }
    int page = pageId(h, path);
    if (page >= 0) {
      return new Route(RouteKind.PAGE, page);
    }
    if (path.startsWith("/go/")) {
      int n = parseIndex(path, 4);
      if (n >= 0 && n < redirects(h)) {
        return new Route(RouteKind.REDIRECT, n);
      }
    }
    if (path.equals("/error")) {
      return new Route(RouteKind.ERROR, -1);
    }
    // Robots.txt is advice: a crawler that ignores it gets a page, and the request log shows it.
    if (disallowed(h, target)) {
      return new Route(RouteKind.DISALLOWED, -1);
    }
    return new Route(RouteKind.NOT_FOUND, -1);
  }

  /** The id of the page at path, -1 if no page of host h has exactly that path. */
  private int pageId(int h, String path) {
    if (path.equals("/")) {
      return 0;
    }
    if (!path.startsWith("/docs/") || !path.endsWith(".html")) {
      return -1;
    }
    int dash = path.lastIndexOf("/page-");
    if (dash < 0) {
      return -1;
    }
    int id = parseIndex(path.substring(0, path.length() - ".html".length()), dash + "/page-".length());
    return id > 0 && id < hosts.get(h).pages() && path.equals(path(id)) ? id : -1;
  }

  /** The decimal number that runs from {@code from} to the end of s, -1 if it is not one (or too big). */
  private static int parseIndex(String s, int from) {
    int length = s.length() - from;
    if (length < 1 || length > 9) {
      return -1;
    }
    int n = 0;
    for (int i = from; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      n = n * 10 + (c - '0');
    }
    return n;
  }

  // ---------------------------------------------------------------- links

  /**
   * The links of page {@code id} of host h, exactly {@code linksPerPage} of them, most
   * important first: home, parent and children (which make every page reachable), then the
   * nav bar, then one or a few of each special kind, then random pages of the host.
   */
  List<Link> links(int h, int id) {
    return links(h, id, true);
  }

  /**
   * The links of a page; without hrefs (null) when only their targets matter, as in the
   * crawl oracle, where building the hrefs' strings would be most of the work. The random
   * draws are the same either way, so the targets are too.
   */
  private List<Link> links(int h, int id, boolean withHrefs) {
    DemoHost host = hosts.get(h);
    int budget = spec.linksPerPage();
    int linked = linkedPages(h);
    SplittableRandom random = new SplittableRandom(mix(h, id, SALT_LINKS));
    String self = path(id);
    Links links = new Links(budget, withHrefs);

    links.add(pageLink(Kind.HOME, h, 0, "/"));
    if (id > 0) {
      int parent = (id - 1) / BRANCHING;
      links.add(pageLink(Kind.PARENT, h, parent, links.hrefs ? relative(self, path(parent)) : null));
    }
    for (int child = id * BRANCHING + 1; child <= id * BRANCHING + BRANCHING && child < linked && child > 0; child++) {
      links.add(pageLink(Kind.CHILD, h, child, links.hrefs ? relative(self, path(child)) : null));
    }
    for (int nav = 1; nav <= NAV_PAGES && nav < linked; nav++) {
      links.add(pageLink(Kind.NAV, h, nav, path(nav)));
    }

    for (int i = 0; i < 2; i++) {
      String go = "/go/" + random.nextInt(redirects(h));
      links.add(new Link(Kind.REDIRECT, h, -1, go, go));
    }
    String missing = "/missing/" + random.nextInt(missingPages(h));
    links.add(new Link(Kind.MISSING, h, -1, missing, missing));
    links.add(new Link(Kind.ERROR, h, -1, "/error", "/error"));
    List<String> disallow = host.disallow();
    for (int i = 0; i < 2 && !disallow.isEmpty(); i++) {
      String target = underPrefix(disallow.get(i % disallow.size()), random);
      links.add(new Link(Kind.DISALLOWED, h, -1, target, target));
    }
    for (int i = 0; i < 3; i++) {
      int page = random.nextInt(linked);
      String href = href(self, path(page), h, random, links.hrefs);
      String tracking = TRACKING[random.nextInt(TRACKING.length)];
      href = href == null ? null : href + "?" + tracking;
      links.add(new Link(Kind.TRACKING, h, page, path(page), href));
    }
    for (int i = 0; i < 3; i++) {
      int page = random.nextInt(linked);
      String href = href(self, path(page), h, random, links.hrefs);
      int section = 1 + random.nextInt(4);
      href = href == null ? null : href + "#section-" + section;
      links.add(new Link(Kind.FRAGMENT, h, page, path(page), href));
    }
    links.add(new Link(Kind.SELF_FRAGMENT, h, id, self, "#top"));
    if (id % 10 == 0) {
      String file = id == 0 ? "/" : self.substring(self.lastIndexOf('/') + 1);
      links.add(new Link(Kind.PRINT, h, id, self + "?view=print", file + "?view=print&utm_source=print-button"));
    }
    links.add(new Link(Kind.MAILTO, h, -1, null, "mailto:docs@" + host.name()));
    links.add(new Link(Kind.JAVASCRIPT, h, -1, null, "javascript:window.print()"));
    otherHostLinks(h, seedHosts, 5, random, links);
    otherHostLinks(h, nonSeedHosts, 2, random, links);

    while (!links.full()) {
      int page = random.nextInt(linked);
      links.add(pageLink(Kind.PAGE, h, page, href(self, path(page), h, random, links.hrefs)));
    }
    return links.list;
  }

  private void otherHostLinks(int h, int[] among, int count, SplittableRandom random, Links links) {
    if (among.length == 0 || (among.length == 1 && among[0] == h)) {
      return;
    }
    for (int i = 0; i < count; i++) {
      int other;
      do {
        other = among[random.nextInt(among.length)];
      } while (other == h);
      int page = random.nextInt(linkedPages(other));
      links.add(new Link(Kind.OTHER_HOST, other, page, path(page), links.hrefs ? origins[other] + path(page) : null));
    }
  }

  private Link pageLink(Kind kind, int h, int page, String href) {
    return new Link(kind, h, page, path(page), href);
  }

  /** A URL under a Disallow prefix: a file under a directory prefix, a query after any other. */
  private static String underPrefix(String prefix, SplittableRandom random) {
    if (prefix.endsWith("/")) {
      return prefix + "notes-" + random.nextInt(10) + ".html";
    }
    String query = "q=" + Vocabulary.word(random);
    if (prefix.endsWith("?") || prefix.endsWith("&")) {
      return prefix + query;
    }
    return prefix + (prefix.contains("?") ? "&" : "?") + query;
  }

  /** A same-host link as pages write them: mostly relative, some from the root, a few absolute. */
  private String href(String from, String to, int h, SplittableRandom random, boolean wanted) {
    int style = random.nextInt(10);
    if (!wanted) {
      return null;
    }
    if (style < 6) {
      return relative(from, to);
    }
    return style < 9 ? to : origins[h] + to;
  }

  /**
   * The relative reference from one absolute path to another, as RFC 3986 section 5.2
   * resolves it: "page-3.html", "../api/page-3.html", "docs/api/page-3.html", "../../".
   */
  static String relative(String from, String to) {
    int fromDirEnd = from.lastIndexOf('/') + 1; // "/docs/api/" of "/docs/api/page-3.html"
    int toDirEnd = to.lastIndexOf('/') + 1;
    int same = 0;
    while (same < fromDirEnd && same < toDirEnd && from.charAt(same) == to.charAt(same)) {
      same++;
    }
    int common = from.lastIndexOf('/', same - 1) + 1; // the shared directories, up to a '/'
    StringBuilder sb = new StringBuilder(32);
    for (int i = common; i < fromDirEnd; i++) {
      if (from.charAt(i) == '/') {
        sb.append("../");
      }
    }
    sb.append(to, common, to.length());
    return sb.isEmpty() ? "./" : sb.toString();
  }

  /** A list that stops taking links at its budget. */
  private static final class Links {
    final List<Link> list;
    final int budget;
    final boolean hrefs;

    Links(int budget, boolean hrefs) {
      this.hrefs = hrefs;
      this.list = new ArrayList<>(budget);
      this.budget = budget;
    }

    void add(Link link) {
      if (list.size() < budget) {
        list.add(link);
      }
    }

    boolean full() {
      return list.size() >= budget;
    }
  }

  // ---------------------------------------------------------------- the crawl oracle

  /**
   * Absolute URLs a correct crawl requests, as it spells them after normalization: a
   * breadth-first walk from the seed hosts' home pages through links and redirects, on hosts
   * where {@code hostInScope} holds, skipping robots-disallowed URLs and non-http links. A
   * host counts as reached when any URL of it is found (even a disallowed one, since the
   * crawler must read robots.txt to know): that adds its /robots.txt, and, for a host with a
   * sitemap, its /sitemap.xml and every page the sitemap lists. 404 and 500 URLs are requested
   * but lead nowhere; a redirect leads to its target.
   */
  Set<String> expectedFetches(Predicate<String> hostInScope) {
    boolean[] inScope = new boolean[hosts.size()];
    for (int h = 0; h < hosts.size(); h++) {
      inScope[h] = hostInScope.test(hosts.get(h).name());
    }
    Walk walk = new Walk(inScope);
    for (int h : seedHosts) {
      walk.discover(h, "/");
    }
    while (!walk.queue.isEmpty()) {
      Walk.Pending next = walk.queue.poll();
      Route route = route(next.host(), next.target());
      switch (route.kind()) {
        case PAGE -> {
          for (Link link : links(next.host(), route.id(), false)) {
            if (link.target() != null) {
              walk.discover(link.host(), link.target());
            }
          }
        }
        case REDIRECT -> walk.discover(next.host(), path(redirectTarget(next.host(), route.id())));
        default -> { } // 404, 500, and the robots-disallowed page that is never requested
      }
    }
    return walk.fetched;
  }

  private final class Walk {
    record Pending(int host, String target) {}

    final boolean[] inScope;
    final boolean[] reached;
    /** Targets seen per host: most are the graph's cached path strings, so no URL is built to test one. */
    final List<Set<String>> seen = new ArrayList<>();
    final Set<String> fetched = new LinkedHashSet<>();
    final ArrayDeque<Pending> queue = new ArrayDeque<>();

    Walk(boolean[] inScope) {
      this.inScope = inScope;
      this.reached = new boolean[inScope.length];
      for (int h = 0; h < inScope.length; h++) {
        seen.add(new HashSet<>());
      }
    }

    void discover(int h, String target) {
      if (!inScope[h]) {
        return;
      }
      if (!reached[h]) {
        reached[h] = true;
        fetched.add(url(h, "/robots.txt"));
        if (hosts.get(h).sitemap()) {
          fetched.add(url(h, "/sitemap.xml"));
          for (String path : sitemapPaths(h)) {
            discover(h, path);
          }
        }
      }
      if (!disallowed(h, target) && seen.get(h).add(target)) {
        fetched.add(url(h, target));
        queue.add(new Pending(h, target));
      }
    }
  }

  // ---------------------------------------------------------------- seeds of randomness

  /** A generator seed for one purpose on one page: the same inputs give the same page on any JVM. */
  long mix(int h, long id, long salt) {
    long x = spec.seed();
    x = x * 0x9E3779B97F4A7C15L + hosts.get(h).name().hashCode();
    x = x * 0x9E3779B97F4A7C15L + id;
    x = x * 0x9E3779B97F4A7C15L + salt;
    return x;
  }
}
