/**
 * One crawl across machines on Apache Kafka. A crawl has P partitions
 * ({@link dev.crawler.frontier.Partitions}); every URL a node admits goes to the crawl's URL
 * topic ({@link dev.crawler.cluster.ClusterTopics}), keyed by its queue key and routed by
 * {@link dev.crawler.cluster.QueueKeyPartitioner}, so topic partition p is frontier partition p.
 * The node that owns a partition in the crawl's consumer group
 * ({@link dev.crawler.cluster.UrlTopicConsumer}) takes its URLs into its own URL-seen store and
 * frontier ({@link dev.crawler.cluster.PartitionOwner}), continuing from its local checkpoint or
 * replaying the partition from its first record.
 */
package dev.crawler.cluster;
