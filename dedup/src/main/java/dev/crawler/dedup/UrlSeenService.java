package dev.crawler.dedup;

import com.google.common.util.concurrent.Striped;
import dev.crawler.dedup.internal.FilterStack;
import dev.crawler.dedup.internal.FingerprintStore;
import dev.crawler.dedup.internal.RecentFingerprints;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;
import java.util.function.Consumer;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers "have we seen this URL?" for every discovered link, NEW exactly once per URL.
 *
 * <p>A Bloom filter answers first. Its "no" is certain: the URL is NEW, and its
 * fingerprint is written to the exact store (RocksDB) before the answer returns. Its
 * "maybe" goes to the {@link FalsePositivePolicy}: {@code ACCEPT} takes it as SEEN (a
 * false positive skips a page; the expected number is reported), {@code VERIFY} looks
 * the fingerprint up in the exact store, in one batched read per call, behind a small
 * memory of recent URLs that answers the links every page repeats.
 *
 * <p>Exactly once: every decision about one fingerprint happens under that
 * fingerprint's stripe lock, and a fingerprint answered NEW stays in a pending set
 * until its store write is done, so a concurrent "maybe" for it finds it in one or the
 * other.
 *
 * <p>Recorded after the caller has used the answer: {@link #markSeenAll(List, Consumer)} hands a
 * batch's verdicts to the caller (the crawler queues its NEW URLs there) before it writes the NEW
 * fingerprints to the store. A process killed in between has queued URLs it did not record, never
 * recorded URLs it did not queue: after the restart those URLs are NEW again when found again, a
 * bounded duplicate (the URLs of the batches in flight at the kill) instead of a lost URL.
 *
 * <p>No false negatives across restarts: {@link #close} saves the filters and then
 * marks them clean in the store; {@link #open} uses them only if so marked (and removes
 * the mark, with fsync, before any write), else rebuilds them from the store, which
 * holds every fingerprint ever answered NEW.
 */
public final class UrlSeenService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(UrlSeenService.class);

  public enum Verdict { NEW, SEEN }

  /** What the filter's "maybe" means. */
  public enum FalsePositivePolicy { ACCEPT, VERIFY }

  /** What happens when the filter holds the URLs it was sized for. */
  public enum CapacityPolicy { WARN, GROW }

  /**
   * @param directory folder for the exact store and the filter files
   * @param expectedUrls URLs the first filter is sized for
   * @param falsePositiveRate target rate (ignored when {@code memoryBudgetBytes} is present)
   * @param memoryBudgetBytes if present, the first filter's size; its rate follows
   * @param recentUrls fingerprints remembered in memory to skip store reads (8 bytes each)
   * @param syncWrites fsync each store write (power-cut safe) rather than the log alone (kill -9 safe)
   */
  public record Options(Path directory, long expectedUrls, double falsePositiveRate, OptionalLong memoryBudgetBytes,
      FalsePositivePolicy policy, CapacityPolicy onCapacity, BloomFilter.Layout layout, int recentUrls,
      boolean syncWrites, long storeCacheBytes) {

    public static Options defaults(Path directory) {
      return builder(directory).build();
    }

    public static Builder builder(Path directory) {
      return new Builder(directory);
    }
  }

  /** Options one at a time; the defaults are the crawler configuration's. */
  public static final class Builder {
    private final Path directory;
    private long expectedUrls = 100_000_000L;
    private double falsePositiveRate = 0.01;
    private OptionalLong memoryBudgetBytes = OptionalLong.empty();
    private FalsePositivePolicy policy = FalsePositivePolicy.VERIFY;
    private CapacityPolicy onCapacity = CapacityPolicy.GROW;
    private BloomFilter.Layout layout = BloomFilter.Layout.CACHE_LINE;
    private int recentUrls = 1 << 20;
    private boolean syncWrites;
    private long storeCacheBytes = 64L << 20;

    private Builder(Path directory) {
      this.directory = directory;
    }

    public Builder expectedUrls(long n) {
      expectedUrls = n;
      return this;
    }

    public Builder falsePositiveRate(double p) {
      falsePositiveRate = p;
      return this;
    }

    public Builder memoryBudgetBytes(OptionalLong bytes) {
      memoryBudgetBytes = bytes;
      return this;
    }

    public Builder policy(FalsePositivePolicy p) {
      policy = p;
      return this;
    }

    public Builder onCapacity(CapacityPolicy c) {
      onCapacity = c;
      return this;
    }

    public Builder layout(BloomFilter.Layout l) {
      layout = l;
      return this;
    }

    public Builder recentUrls(int r) {
      recentUrls = r;
      return this;
    }

    public Builder syncWrites(boolean sync) {
      syncWrites = sync;
      return this;
    }

    public Builder storeCacheBytes(long bytes) {
      storeCacheBytes = bytes;
      return this;
    }

    public Options build() {
      return new Options(directory, expectedUrls, falsePositiveRate, memoryBudgetBytes, policy, onCapacity, layout,
          recentUrls, syncWrites, storeCacheBytes);
    }
  }

  /**
   * NEW answers between two capacity checks (which also refresh the rate used for the
   * skip estimate): at most 1/256 of the newest filter's capacity, so it overshoots it
   * by at most 0.4% before growing, and at most 4,096 so checks stay rare.
   */
  private static long capacityCheckInterval(BloomFilter newest) {
    return Math.max(16, Math.min(4096, newest.expectedInsertions() / 256));
  }

  private final Options options;
  private final FingerprintStore store;
  private final FilterStack filters;
  private final RecentFingerprints recent;
  private final Striped<Lock> locks = Striped.lock(4096);
  private final Set<UrlFingerprint> pending = ConcurrentHashMap.newKeySet();

  private final LongAdder checks = new LongAdder();
  private final LongAdder newUrls = new LongAdder();
  private final LongAdder recentHits = new LongAdder();
  private final LongAdder filterMaybes = new LongAdder();
  private final LongAdder storeReads = new LongAdder();
  private final LongAdder caughtFalsePositives = new LongAdder();
  private final DoubleAdder estimatedSkips = new DoubleAdder();
  private final LongAdder newSinceRefresh = new LongAdder();
  private volatile double currentRate;
  private double warnAtKeys;
  private volatile boolean closed;
  /** Set when a batch was not recorded: the filter may hold bits the store lacks, so it is not saved as clean. */
  private volatile boolean storeFailed;
  private final Recovery recovery;
  /** What it was when opened, for the start line. */
  private final String description;

  /** How the filter came to be at open: for the log and for tests. */
  public enum Recovery {
    /** No earlier state: an empty filter. */
    FRESH,
    /** The filter files of a clean close. */
    LOADED,
    /** Rebuilt from the exact store, after a crash or a damaged file. */
    REBUILT
  }

  private UrlSeenService(Options options, FingerprintStore store, FilterStack filters, Recovery recovery) {
    this.options = options;
    this.recovery = recovery;
    this.store = store;
    this.filters = filters;
    this.recent = new RecentFingerprints(options.recentUrls());
    this.description = String.format(Locale.ROOT, "URL-seen: %d filter(s), %s, k=%d, sized for %,d URLs at %s%s; "
        + "policy %s, on capacity %s", filters.filters().size(), mebibytes(filters.byteSize()), filters.newest().hashes(),
        filters.newest().expectedInsertions(), percent(filters.newest().targetRate()), stackedRates(options),
        options.policy(), options.onCapacity());
    this.currentRate = filters.estimatedRate();
    this.warnAtKeys = filters.newest().expectedInsertions();
  }

  /** Opens (or creates) the service's state in {@code options.directory()}, and logs what it is ({@link #describe}). */
  public static UrlSeenService open(Options options) throws IOException {
    UrlSeenService service = openQuietly(options);
    log.info(service.describe());
    return service;
  }

  /**
   * As {@link #open}, without the line: for a caller that opens many (one per partition of a
   * crawl across machines) and says once what they are.
   */
  public static UrlSeenService openQuietly(Options options) throws IOException {
    FingerprintStore store = new FingerprintStore(options.directory().resolve("store"), options.syncWrites(),
        options.storeCacheBytes());
    try {
      Recovery[] recovery = new Recovery[1];
      FilterStack filters = loadOrRebuild(options, store, recovery);
      store.setFilterUnsaved();   // from here on the files may fall behind the store
      return new UrlSeenService(options, store, filters, recovery[0]);
    } catch (IOException | RocksDBException | RuntimeException e) {
      store.close();
      throw e instanceof IOException io ? io : new IOException("Cannot open the URL-seen service: " + e.getMessage(), e);
    }
  }

  /** What it is, as it was opened: its filters, their size and rate, its policies. */
  public String describe() {
    return description;
  }

  /** Why the filter's rate is not the one asked for, when it is a growing stack's; empty otherwise. */
  private static String stackedRates(Options options) {
    if (options.onCapacity() != CapacityPolicy.GROW || options.memoryBudgetBytes().isPresent()) {
      return "";
    }
    String asked = percent(options.falsePositiveRate());
    return " (a growing stack: its first filter gets half the " + asked + " asked for, each filter added "
        + "half the rate of the one before, so together they stay under " + asked + ")";
  }

  /** 0.5%, 1%, 0.0125%: three significant figures at most, no trailing zeros. */
  private static String percent(double rate) {
    return new BigDecimal(rate * 100).round(new MathContext(3)).stripTrailingZeros().toPlainString() + "%";
  }

  /** 1.4 MB, 0.1 MB: in powers of 1024 like the config's sizes, and never "0 MB". */
  private static String mebibytes(long bytes) {
    double mb = bytes / (1024.0 * 1024);
    return mb >= 9.95 ? String.format(Locale.ROOT, "%,.0f MB", mb)
        : mb >= 0.1 ? String.format(Locale.ROOT, "%,.1f MB", mb)
        : String.format(Locale.ROOT, "%,.1f KB", bytes / 1024.0);
  }

  private static FilterStack loadOrRebuild(Options options, FingerprintStore store, Recovery[] recovery)
      throws IOException, RocksDBException {
    Path dir = options.directory();
    byte[] saved = store.savedFilterSignature();
    String why = "the last run did not stop cleanly";
    if (saved != null) {
      why = "the saved filter could not be used";
      try {
        FilterStack loaded = FilterStack.readFrom(dir);
        if (loaded != null && Arrays.equals(saved, loaded.signature())) {
          recovery[0] = Recovery.LOADED;
          return loaded;
        }
        if (loaded == null) {
          log.warn("URL-seen: the store says the filter was saved, but no filter file is in {}; rebuilding it", dir);
        } else if (saved.length > 0) {
          log.warn("URL-seen: the filter files in {} are not the ones saved (a file missing or replaced); "
              + "rebuilding the filter from the exact store", dir);
        }
        if (saved.length == 0) {
          why = "the filter was saved by an earlier build, without the signature that proves it whole";
        }
      } catch (IOException e) {
        log.warn("URL-seen: {}; rebuilding the filter from the exact store", e.getMessage());
      }
    }
    FilterStack.deleteFiles(dir);
    FilterStack fresh = new FilterStack(firstFilter(options));
    long started = System.nanoTime();
    long rebuilt = store.forEach(fp -> {
      fresh.put(fp);
      if (fresh.newest().isAtCapacity() && options.onCapacity() == CapacityPolicy.GROW) {
        fresh.grow();
      }
    });
    recovery[0] = rebuilt > 0 ? Recovery.REBUILT : Recovery.FRESH;
    if (rebuilt > 0) {
      log.warn("URL-seen: {}; rebuilt the filter from {} fingerprints in {} ms", why,
          String.format(Locale.ROOT, "%,d", rebuilt), (System.nanoTime() - started) / 1_000_000);
    }
    return fresh;
  }

  private static BloomFilter firstFilter(Options options) {
    if (options.memoryBudgetBytes().isPresent()) {
      return BloomFilter.createWithMemory(options.expectedUrls(), options.memoryBudgetBytes().getAsLong(),
          options.layout());
    }
    return BloomFilter.create(options.expectedUrls(), firstFilterRate(options), options.layout());
  }

  /** Growing stacks filters whose rates add up: the first starts under the target so the sum stays under it. */
  private static double firstFilterRate(Options options) {
    return options.onCapacity() == CapacityPolicy.GROW
        ? options.falsePositiveRate() * (1 - FilterStack.TIGHTENING)
        : options.falsePositiveRate();
  }

  /**
   * The heap a new service with these options takes at once: its first filter and the memory of
   * recent URLs. A reopened one may hold more (filters added by growing); the exact store's
   * block cache is native memory and not counted.
   */
  public static long heapBytes(Options options) {
    return filterHeapBytes(options) + recentHeapBytes(options);
  }

  /** The heap of a new service's first filter. */
  public static long filterHeapBytes(Options options) {
    return options.memoryBudgetBytes().isPresent()
        ? BloomFilter.plannedBytesWithMemory(options.memoryBudgetBytes().getAsLong(), options.layout())
        : BloomFilter.plannedBytes(options.expectedUrls(), firstFilterRate(options), options.layout());
  }

  /** The heap of the memory of recent URLs. */
  public static long recentHeapBytes(Options options) {
    return RecentFingerprints.bytesFor(options.recentUrls());
  }

  /**
   * The most native memory the exact store may take: its block cache and its write buffers, which
   * fill with new fingerprints until they are flushed.
   */
  public static long storeNativeBytes(Options options) {
    return options.storeCacheBytes() + FingerprintStore.WRITE_BUFFERS * FingerprintStore.WRITE_BUFFER_BYTES;
  }

  // ------------------------------------------------------------------ answers

  /** Marks one normalized URL; NEW the first time it is ever marked, SEEN after. */
  public Verdict markSeen(String normalizedUrl) {
    return markSeen(UrlFingerprint.of(normalizedUrl));
  }

  public Verdict markSeen(UrlFingerprint fingerprint) {
    return markSeenAll(List.of(fingerprint)).get(0);
  }

  /**
   * Marks a batch (a page's links): one store read for all the filter's "maybe"s and one
   * store write for all the NEW ones. Verdicts come back in the order of the input;
   * a fingerprint repeated in the batch is NEW at most once.
   *
   * @throws UncheckedIOException if the exact store cannot be read or written (a full
   *     disk): the NEW answers of this batch were not recorded and must not be used
   */
  public List<Verdict> markSeenAll(List<UrlFingerprint> fingerprints) {
    return markSeenAll(fingerprints, verdicts -> { });
  }

  /**
   * Marks a batch as {@link #markSeenAll(List)} does, and hands the verdicts to
   * {@code beforeRecording} after they are decided and before the NEW fingerprints are written
   * to the exact store. A caller that queues its NEW URLs in {@code beforeRecording} (as the
   * crawler offers them to its frontier) makes a kill safe: a URL is recorded as seen only once
   * it is queued, so a process killed in between loses nothing, and after the restart the
   * batch's NEW URLs are NEW again when found again (the filter is rebuilt from the store).
   *
   * <p>While {@code beforeRecording} runs, the batch's NEW fingerprints are pending: a
   * concurrent call answers SEEN for them. If it throws, nothing of the batch is recorded and
   * the exception propagates; the filter then holds bits the store lacks, so it is not saved as
   * clean at {@link #close} and the next open rebuilds it. Until then, under {@code VERIFY}
   * the store answers NEW for those URLs again; under {@code ACCEPT} they test SEEN.
   *
   * @param beforeRecording receives the verdicts, in the order of the input (read-only)
   * @throws UncheckedIOException if the exact store cannot be read or written (a full disk)
   */
  public List<Verdict> markSeenAll(List<UrlFingerprint> fingerprints, Consumer<List<Verdict>> beforeRecording) {
    if (closed) {
      throw new IllegalStateException("URL-seen service is closed");
    }
    int n = fingerprints.size();
    Verdict[] verdicts = new Verdict[n];
    List<UrlFingerprint> added = new ArrayList<>();
    List<Integer> toVerify = new ArrayList<>();
    // Counted once the batch is answered and recorded: a batch that fails (its frontier offer, the
    // store) answers nothing the stats could hold to, and its NEWs counted as SEENs otherwise.
    int hits = 0;
    int maybes = 0;
    filters.prefetch(fingerprints);   // the batch's filter misses overlap here, not one by one below
    for (int i = 0; i < n; i++) {
      UrlFingerprint fp = fingerprints.get(i);
      if (recent.contains(fp)) {
        hits++;
        verdicts[i] = Verdict.SEEN;
        continue;
      }
      Lock lock = locks.get(fp);
      lock.lock();
      try {
        if (filters.put(fp)) {
          pending.add(fp);
          added.add(fp);
          verdicts[i] = Verdict.NEW;
        } else {
          maybes++;
          if (options.policy() == FalsePositivePolicy.ACCEPT || pending.contains(fp)) {
            verdicts[i] = Verdict.SEEN;
          } else {
            toVerify.add(i);
          }
        }
      } finally {
        lock.unlock();
      }
    }
    List<Verdict> answers = Collections.unmodifiableList(Arrays.asList(verdicts));
    boolean recorded = false;
    int caught = 0;
    try {
      if (!toVerify.isEmpty()) {
        caught = verify(fingerprints, toVerify, verdicts, added);
      }
      beforeRecording.accept(answers);
      if (!added.isEmpty()) {
        store.addAll(added);
      }
      recorded = true;
    } catch (RocksDBException e) {
      throw new UncheckedIOException(new IOException("URL-seen store failed: " + e.getMessage(), e));
    } finally {
      if (!recorded) {
        storeFailed = true;   // the filter holds bits the store lacks: rebuild it at the next open
      }
      // Written or failed, they leave the pending set: a failed write leaves them to the store's answer.
      for (UrlFingerprint fp : added) {
        pending.remove(fp);
      }
    }
    for (UrlFingerprint fp : added) {
      recent.add(fp);
    }
    checks.add(n);
    recentHits.add(hits);
    filterMaybes.add(maybes);
    caughtFalsePositives.add(caught);
    account(added.size());
    return answers;
  }

  /** Confirms the filter's "maybe"s in the store; returns the false positives it caught. */
  private int verify(List<UrlFingerprint> fingerprints, List<Integer> toVerify, Verdict[] verdicts,
      List<UrlFingerprint> added) throws RocksDBException {
    int caught = 0;
    List<UrlFingerprint> lookups = new ArrayList<>(toVerify.size());
    for (int i : toVerify) {
      lookups.add(fingerprints.get(i));
    }
    storeReads.add(lookups.size());
    boolean[] found = store.containsAll(lookups);
    for (int j = 0; j < found.length; j++) {
      int i = toVerify.get(j);
      UrlFingerprint fp = lookups.get(j);
      if (found[j]) {
        verdicts[i] = Verdict.SEEN;
        recent.add(fp);
        continue;
      }
      // Not in the store when read: a false positive, or a NEW answer racing to the store.
      Lock lock = locks.get(fp);
      lock.lock();
      try {
        if (pending.contains(fp) || store.contains(fp)) {
          verdicts[i] = Verdict.SEEN;
        } else {
          pending.add(fp);
          added.add(fp);
          verdicts[i] = Verdict.NEW;
          caught++;
        }
      } finally {
        lock.unlock();
      }
    }
    return caught;
  }

  private void account(int added) {
    newUrls.add(added);
    if (added == 0) {
      return;
    }
    if (options.policy() == FalsePositivePolicy.ACCEPT) {
      double r = currentRate;
      estimatedSkips.add(added * r / (1 - r));
    }
    newSinceRefresh.add(added);
    if (newSinceRefresh.sum() >= capacityCheckInterval(filters.newest())) {
      newSinceRefresh.reset();
      checkCapacity();
    }
  }

  /** Grows or warns when the newest filter is full; refreshes the rate used for estimates. */
  private synchronized void checkCapacity() {
    BloomFilter newest = filters.newest();
    if (newest.isAtCapacity()) {
      if (options.onCapacity() == CapacityPolicy.GROW) {
        BloomFilter added = filters.grow();
        log.info("URL-seen: filter full at {} URLs; added a filter for {} more at {} ({} filters, {} MB)",
            String.format(Locale.ROOT, "%,d", newest.expectedInsertions()), String.format(Locale.ROOT, "%,d", added.expectedInsertions()),
            String.format(Locale.ROOT, "%.4f%%", added.targetRate() * 100), filters.filters().size(), filters.byteSize() >> 20);
      } else if (newest.estimatedKeys() >= warnAtKeys) {
        double keys = newest.estimatedKeys();
        if (Double.isInfinite(keys)) {
          log.warn("URL-seen: the filter is full (every bit set): every URL is now a 'maybe'{}. Raise "
                  + "seen.expected-urls or set seen.on-capacity: grow before the next crawl.",
              options.policy() == FalsePositivePolicy.ACCEPT ? " and is skipped" : " and costs a store read");
        } else {
          log.warn("URL-seen: the filter holds ~{} URLs, past the {} it was sized for; its false-positive rate is "
                  + "now ~{}. Raise seen.expected-urls or set seen.on-capacity: grow before the next crawl.",
              String.format(Locale.ROOT, "%,.0f", keys), String.format(Locale.ROOT, "%,d", newest.expectedInsertions()),
              String.format(Locale.ROOT, "%.3f%%", newest.estimatedRate() * 100));
        }
        // Again at each further quarter; a full filter (infinite estimate) is said once.
        warnAtKeys = Double.isInfinite(keys) ? Double.NaN : keys * 1.25;
      }
    }
    currentRate = filters.estimatedRate();
  }

  /** True if the URL may have been marked: for tests and tools, not for deciding (use markSeen). */
  public boolean mightHaveSeen(String normalizedUrl) {
    return filters.mightContain(UrlFingerprint.of(normalizedUrl));
  }

  public Recovery recovery() {
    return recovery;
  }

  public UrlSeenStats stats() {
    long c = checks.sum();
    long fresh = newUrls.sum();
    return new UrlSeenStats(c, fresh, c - fresh, recentHits.sum(), filterMaybes.sum(), storeReads.sum(),
        caughtFalsePositives.sum(), estimatedSkips.sum(), filters.filters().size(), filters.keys(), filters.capacity(),
        filters.fillRatio(), filters.estimatedRate(), filters.byteSize(),
        filters.filters().stream().map(FilterFill::of).toList());
  }

  /** Native memory of the exact store (block cache in use and memtables); -1 if it cannot tell. */
  public long storeMemoryBytes() {
    try {
      return store.memoryBytes();
    } catch (RocksDBException e) {
      return -1;
    }
  }

  /** Bytes of the exact store on disk. */
  public long storeDiskBytes() {
    try {
      return store.diskBytes();
    } catch (RocksDBException e) {
      return -1;
    }
  }

  /**
   * Bytes (roughly) the exact store's background compactions still have to rewrite; 0 once it
   * has settled. A bulk load leaves a backlog that slows reads until it is worked off.
   */
  public long storeCompactionBacklog() {
    try {
      return store.compactionBacklog();
    } catch (RocksDBException e) {
      return -1;
    }
  }

  /**
   * Saves the filters, marks them clean and closes the store. Callers stop marking
   * first; a close during a markSeenAll call is a programmer error.
   */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      store.syncWal();
      if (storeFailed) {
        log.warn("URL-seen: a batch was not recorded in this run; the filter is not saved and will be rebuilt at the next start");
        return;
      }
      filters.writeTo(options.directory());
      store.setFilterSaved(filters.signature());
    } catch (RocksDBException e) {
      throw new IOException("Cannot save the URL-seen state: " + e.getMessage(), e);
    } finally {
      store.close();
    }
  }
}
