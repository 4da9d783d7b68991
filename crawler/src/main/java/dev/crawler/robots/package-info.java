/**
 * robots.txt, as RFC 9309 has it: {@link dev.crawler.robots.RobotsCache} fetches a host's
 * {@code /robots.txt} once, keeps the answer for a while, and hands out
 * {@link dev.crawler.robots.HostRobots}: the rules for our agent, its Crawl-delay and the
 * Sitemap lines.
 *
 * <p>How a fetch becomes rules ({@code RobotsReader}): up to five redirects are followed, to
 * any host; the first 512 KiB are parsed by crawler-commons' {@code SimpleRobotRulesParser},
 * matching our agent name as a product token; a 2xx is {@code FOUND}, a 4xx (but 429) is
 * {@code ALLOW_ALL}, anything else (5xx, 429, no answer, a sixth redirect) is
 * {@code UNAVAILABLE}, which disallows the host until the retry delay has passed. Crawl-delay
 * values are made readable first ({@code CrawlDelayLines}): crawler-commons drops any it cannot
 * read as an int or a decimal, and a huge one asks for the longest delay, not none. The parser
 * takes any bytes, so a binary or HTML robots.txt gives whatever rules it finds, never an
 * exception.
 */
package dev.crawler.robots;
