package dev.crawler.visit;

/**
 * One job of a visit, in the order {@link VisitPipeline} runs them. A stage reads what the
 * stages before it learnt from the {@link Visit}, adds what it learns, and says what happens
 * next. Shared by all workers: it keeps no state of one visit in its fields.
 */
@FunctionalInterface
public interface VisitStage {
  Step apply(Visit visit);
}
