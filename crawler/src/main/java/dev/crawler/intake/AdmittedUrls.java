package dev.crawler.intake;

import java.util.List;

/**
 * Where the URLs the intake lets in go. On one machine: the URL-seen check, then the local
 * frontier ({@link SeenThenQueued}). In a cluster: the node that owns each URL's partition, which
 * runs the same check and queue for it.
 */
public interface AdmittedUrls {
  /**
   * Takes one page's admitted URLs (or one batch of seeds), each once, in the order found.
   * Durable when it returns: a URL taken is queued or on its way to its queue, even across a kill.
   *
   * @return how many were new here and queued; a sink that decides elsewhere returns how many it sent
   */
  int take(List<AdmittedUrl> urls);
}
