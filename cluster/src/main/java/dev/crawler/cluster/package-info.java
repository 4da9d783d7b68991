/**
 * One crawl across machines on Apache Kafka. A crawl has P partitions
 * ({@link dev.crawler.frontier.Partitions}); every URL a node admits goes to the crawl's URL
 * topic ({@link dev.crawler.cluster.ClusterTopics}), keyed by its queue key and routed by
 * {@link dev.crawler.cluster.QueueKeyPartitioner}, so topic partition p is frontier partition p.
 * The node that owns a partition in the crawl's consumer group
 * ({@link dev.crawler.cluster.UrlTopicConsumer}) takes its URLs into its own URL-seen store and
 * frontier ({@link dev.crawler.cluster.PartitionOwner}), continuing from its local checkpoint or
 * replaying the partition from its first record.
 *
 * <p>A node's owner is {@link dev.crawler.cluster.PartitionStates}: each owned partition's
 * {@link dev.crawler.cluster.PartitionState} (URL-seen, a frontier and the
 * {@link dev.crawler.cluster.PartitionCheckpoint} of the offsets they hold) in a folder of its own.
 * Completed URLs go to the done topic ({@link dev.crawler.cluster.DoneRecord},
 * {@link dev.crawler.cluster.DoneTopicProducer}); a partition without local state is rebuilt by
 * {@link dev.crawler.cluster.PartitionReplay}: its done records marked seen first, then its URL
 * records taken, so what is queued is the URLs seen minus those done.
 */
package dev.crawler.cluster;
