package dev.crawler.scope;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a crawl may fetch besides its seeds' sites: the crawl loop builds this from the scope and
 * limits sections of the configuration.
 *
 * @param mode which hosts are in scope
 * @param include if not empty, a URL must match one of these (searched anywhere in the URL)
 * @param exclude a URL matching any of these is out
 * @param maxDepth links followed from a seed (seeds are depth 0); {@link Integer#MAX_VALUE} = unlimited
 * @param maxUrlLength longer URLs are out
 * @param maxRepeatedSegments times one path segment may occur in a path
 * @param maxQueryParameters query parameters a URL may have
 */
public record ScopeRules(ScopeMode mode, List<Pattern> include, List<Pattern> exclude, int maxDepth,
    int maxUrlLength, int maxRepeatedSegments, int maxQueryParameters) {

  public ScopeRules {
    Objects.requireNonNull(mode, "mode");
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
    checkArgument(maxDepth >= 0, "maxDepth (%s) must be >= 0", maxDepth);
    checkArgument(maxUrlLength >= 1, "maxUrlLength (%s) must be >= 1", maxUrlLength);
    checkArgument(maxRepeatedSegments >= 1, "maxRepeatedSegments (%s) must be >= 1", maxRepeatedSegments);
    checkArgument(maxQueryParameters >= 0, "maxQueryParameters (%s) must be >= 0", maxQueryParameters);
  }
}
