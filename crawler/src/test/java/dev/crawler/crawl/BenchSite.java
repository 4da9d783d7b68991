package dev.crawler.crawl;

import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import okhttp3.Dns;

/**
 * The generated site CrawlBench crawls: in the bench's own JVM (its CPU and memory then count
 * in the crawl's figures), or in a child JVM, so that the crawler's CPU and RSS are its own and
 * the site's CPU is reported beside them. Either way it shares the machine's cores.
 */
interface BenchSite extends AutoCloseable {
  Dns dns();

  List<String> seeds();

  /** CPU seconds the site has used so far, or NaN when it runs in the bench's JVM (counted there). */
  double cpuSeconds() throws IOException;

  @Override
  void close() throws Exception;

  static BenchSite start(int hosts, int pagesPerHost, boolean ownProcess) throws IOException {
    return ownProcess ? ChildProcess.start(hosts, pagesPerHost)
        : new SameProcess(DemoSite.start(DemoSiteSpec.generated(hosts, pagesPerHost)));
  }

  /** The site in this JVM. */
  record SameProcess(DemoSite site) implements BenchSite {
    @Override
    public Dns dns() {
      return site.dns();
    }

    @Override
    public List<String> seeds() {
      return site.seeds();
    }

    @Override
    public double cpuSeconds() {
      return Double.NaN;
    }

    @Override
    public void close() {
      site.close();
    }
  }

  /**
   * The site in a child JVM running {@link ChildProcess#main}: it prints its seeds, then
   * "READY", and serves until its standard input closes.
   */
  final class ChildProcess implements BenchSite {
    private final Process process;
    private final List<String> seeds;
    private final Set<String> hosts;

    private ChildProcess(Process process, List<String> seeds, Set<String> hosts) {
      this.process = process;
      this.seeds = seeds;
      this.hosts = hosts;
    }

    static ChildProcess start(int hostCount, int pagesPerHost) throws IOException {
      String java = ProcessHandle.current().info().command().orElse("java");
      Process process = new ProcessBuilder(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
          ChildProcess.class.getName(), Integer.toString(hostCount), Integer.toString(pagesPerHost))
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      List<String> seeds = new ArrayList<>();
      String line;
      while ((line = out.readLine()) != null && !line.equals("READY")) {
        if (line.startsWith("SEED ")) {
          seeds.add(line.substring(5));
        }
      }
      if (line == null) {
        throw new IOException("the bench site's process ended before it was ready (exit " + process.exitValue() + ")");
      }
      // What the child logs from now on is read and dropped, so a full pipe never stalls it.
      Thread.ofPlatform().daemon().start(() -> out.lines().forEach(ignored -> { }));
      Set<String> hosts = DemoSiteSpec.generated(hostCount, pagesPerHost).hosts().stream().map(h -> h.name().toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
      return new ChildProcess(process, seeds, hosts);
    }

    @Override
    public Dns dns() {
      return hostname -> {
        if (hosts.contains(hostname.toLowerCase(Locale.ROOT))) {
          return List.of(InetAddress.getByAddress(hostname, new byte[] {127, 0, 0, 1}));
        }
        throw new UnknownHostException(hostname + " is not a host of the bench site");
      };
    }

    @Override
    public List<String> seeds() {
      return seeds;
    }

    /** utime + stime of /proc/PID/stat, in clock ticks of 1/100 s (Linux). */
    @Override
    public double cpuSeconds() throws IOException {
      String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
    }

    @Override
    public void close() throws Exception {
      try (OutputStream in = process.getOutputStream()) {
        in.flush();
      }
      if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }

    /** Arguments: hosts, pages per host. */
    public static void main(String[] args) throws Exception {
      DemoSiteSpec spec = DemoSiteSpec.generated(Integer.parseInt(args[0]), Integer.parseInt(args[1]));
      try (DemoSite site = DemoSite.start(spec)) {
        for (String seed : site.seeds()) {
          System.out.println("SEED " + seed);
        }
        System.out.println("READY");
        System.out.flush();
        while (System.in.read() >= 0) {
          // serve until the bench closes our standard input
        }
      }
    }
  }
}
