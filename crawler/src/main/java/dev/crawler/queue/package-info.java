/**
 * Which frontier queue a URL joins, and so which politeness delay, connection limit and
 * partition it shares ({@code politeness.queue-by}). {@link dev.crawler.queue.QueueBy} names the
 * choice (host, registered domain, address); {@link dev.crawler.queue.QueueKeys} gives a URL's
 * key; {@link dev.crawler.queue.AddressQueueKeys} looks hosts up for queue-by ip and keeps each
 * host's key, once decided, in a {@link dev.crawler.queue.QueueKeyRecord} on disk, so a resume or
 * a moved DNS answer never splits a host over two queues.
 */
package dev.crawler.queue;
