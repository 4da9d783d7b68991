package dev.crawler.dedup;

/**
 * How many bits and hash functions a blocked Bloom filter needs for a target
 * false-positive rate, and what rate a given size gives.
 *
 * <p>The cheat sheet, for a standard Bloom filter of m bits, n keys and k hashes:
 * <pre>
 *   p = (1 - e^(-kn/m))^k            false-positive rate at n keys
 *   m = -n ln p / (ln 2)^2           bits for rate p (9.59 bits per key at 1%)
 *   k = (m/n) ln 2                   best number of hashes (7 at 1%)
 * </pre>
 * A blocked filter puts all k bits of a key in one block of B bits (a 64-byte cache
 * line for B = 512). Blocks receive unequal numbers of keys (about Poisson with mean
 * λ = nB/m), and the overfull ones answer "maybe" more often, so at equal m the rate is
 * higher than the formula (Putze, Sanders, Singler, "Cache-, Hash- and Space-Efficient
 * Bloom Filters", 2007):
 * <pre>
 *   p_blocked = Σ_j Poisson(j; λ) · (1 - (1 - 1/B)^(k·j))^k
 * </pre>
 * The formula takes a block's expected fill to the k-th power, where the truth is the
 * expectation of the fill's k-th power, which is larger (Jensen): measured at 10^6 keys
 * in 512-bit blocks, rates ran about 1.5% above it. {@link #forRate} therefore aims
 * {@link #MARGIN} below the target when it searches the bits per key and k, so the
 * filter meets its rate as measured (a test checks it), not as hoped.
 */
public final class BloomFilterSizing {
  private BloomFilterSizing() {}

  /** Most hashes per key tried; beyond it the rate improves too little to pay for the work. */
  static final int MAX_HASHES = 24;

  /** Aim this fraction below the target rate, to cover the formula's optimism (measured about 1.5%). */
  static final double MARGIN = 0.05;

  /** Bits per key of a standard (unblocked) Bloom filter at rate {@code p}: -ln p / (ln 2)^2. */
  public static double standardBitsPerKey(double p) {
    checkRate(p);
    return -Math.log(p) / (Math.log(2) * Math.log(2));
  }

  /** The standard formula's rate: (1 - e^(-k/c))^k for c bits per key. */
  public static double standardRate(double bitsPerKey, int k) {
    return Math.pow(1 - Math.exp(-k / bitsPerKey), k);
  }

  /** The blocked formula's rate for c bits per key, k hashes, blocks of {@code blockBits}. */
  public static double blockedRate(double bitsPerKey, int k, int blockBits) {
    double lambda = blockBits / bitsPerKey;   // mean keys per block
    double perBitMiss = Math.log1p(-1.0 / blockBits);
    // Sum the Poisson terms around the mean in log space (λ may be in the thousands).
    int from = (int) Math.max(0, Math.floor(lambda - 12 * Math.sqrt(lambda) - 12));
    int to = (int) Math.ceil(lambda + 12 * Math.sqrt(lambda) + 12);
    double sum = 0;
    for (int j = from; j <= to; j++) {
      double logPoisson = j * Math.log(lambda) - lambda - logFactorial(j);
      double blockRate = Math.pow(-Math.expm1(k * j * perBitMiss), k);
      sum += Math.exp(logPoisson) * blockRate;
    }
    return sum;
  }

  /** The number of hashes that gives the lowest rate for {@code bitsPerKey}, and that rate. */
  public static Choice bestHashes(double bitsPerKey, int blockBits) {
    Choice best = null;
    for (int k = 1; k <= MAX_HASHES; k++) {
      double rate = blockedRate(bitsPerKey, k, blockBits);
      if (best == null || rate < best.rate()) {
        best = new Choice(bitsPerKey, k, rate);
      }
    }
    return best;
  }

  /** The fewest bits per key (to 1/100 of a bit) and the k that meet rate {@code p} in blocks of {@code blockBits}. */
  public static Choice forRate(double p, int blockBits) {
    checkRate(p);
    double aim = p * (1 - MARGIN);
    double low = standardBitsPerKey(p);     // a blocked filter never needs fewer
    double high = low * 2 + 8;
    // The best rate falls as bits per key grow, so bisect on it.
    for (int i = 0; i < 40 && high - low > 0.005; i++) {
      double mid = (low + high) / 2;
      if (bestHashes(mid, blockBits).rate() <= aim) {
        high = mid;
      } else {
        low = mid;
      }
    }
    // Round up to a hundredth of a bit, then step down while the rate still holds.
    double hundredths = Math.ceil(high * 100);
    while (bestHashes((hundredths - 1) / 100, blockBits).rate() <= aim) {
      hundredths--;
    }
    return bestHashes(hundredths / 100, blockBits);
  }

  /** Bits per key, hashes and the rate the formula predicts at the expected number of keys. */
  public record Choice(double bitsPerKey, int hashes, double rate) {}

  private static double logFactorial(int n) {
    if (n < 2) {
      return 0;
    }
    // Stirling's series; exact to double precision well before n = 20, and summing is cheap below it.
    if (n < 20) {
      double sum = 0;
      for (int i = 2; i <= n; i++) {
        sum += Math.log(i);
      }
      return sum;
    }
    double x = n;
    return x * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI * x) + 1 / (12 * x) - 1 / (360 * x * x * x);
  }

  private static void checkRate(double p) {
    if (!(p > 0.0 && p < 1.0)) {
      throw new IllegalArgumentException("False positive probability (" + p + ") must be > 0.0 and < 1.0");
    }
  }
}
