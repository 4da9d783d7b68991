package dev.crawler.dedup;

/**
 * One Bloom filter of the URL-seen stack, as its false-positive curve needs it: with m bits, k
 * hashes and n keys the rate of a standard filter is {@code p = (1 - e^(-kn/m))^k}.
 *
 * @param bits m
 * @param hashes k
 * @param capacity the keys it was sized for; past them its rate rises over the target
 * @param estimatedKeys n, from the fill X as {@code -(m/k) ln(1 - X)}; infinite when every bit is set
 * @param fillRatio X, bits set over bits
 * @param estimatedRate the rate now by the filter's own (blocked) formula
 */
public record FilterFill(long bits, int hashes, long capacity, double estimatedKeys, double fillRatio,
    double estimatedRate) {

  static FilterFill of(BloomFilter filter) {
    return new FilterFill(filter.bitSize(), filter.hashes(), filter.expectedInsertions(), filter.estimatedKeys(),
        filter.fillRatio(), filter.estimatedRate());
  }

  /** {@code (1 - e^(-kn/m))^k} at {@code keys}: the standard filter's curve this filter's point is drawn on. */
  public double curveRate(double keys) {
    return Math.pow(-Math.expm1(-hashes * keys / bits), hashes);
  }
}
