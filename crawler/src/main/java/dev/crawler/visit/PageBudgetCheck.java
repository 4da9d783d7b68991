package dev.crawler.visit;

import dev.crawler.record.CrawlOutcome;
import dev.crawler.scope.PageBudget;

/**
 * Counts the page against the crawl's and its host's limits. A host over its limit has its
 * leftovers ended at once, without requests; when the crawl's limit is spent the crawl stops and
 * the URL stays queued, for a resume with a larger limit.
 */
final class PageBudgetCheck implements VisitStage {
  private final PageBudget budget;
  private final Runnable crawlBudgetSpent;

  PageBudgetCheck(PageBudget budget, Runnable crawlBudgetSpent) {
    this.budget = budget;
    this.crawlBudgetSpent = crawlBudgetSpent;
  }

  @Override
  public Step apply(Visit visit) {
    // The host's own key: under politeness.queue-by: domain the lease's key is its domain's.
    return switch (budget.tryAcquire(visit.url().hostKey())) {
      case GRANTED -> Step.NEXT;
      case HOST_SPENT -> new Step.Done(CrawlOutcome.BUDGET_EXCEEDED, visit.withoutRequest(),
          "crawl.limits.max-pages-per-host reached");
      case CRAWL_SPENT -> {
        crawlBudgetSpent.run();
        yield Step.LEAVE_OPEN;
      }
    };
  }
}
