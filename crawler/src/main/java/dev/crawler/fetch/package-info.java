/**
 * Fetching one URL: {@link dev.crawler.fetch.Fetcher} turns a GET into a
 * {@link dev.crawler.fetch.FetchResult}, whatever the server or the network does.
 *
 * <p>A fetch goes through these stages, assembled in {@code Fetcher.fetch}: parse the URL
 * (OkHttp's {@code HttpUrl}; anything else is {@code UNSUPPORTED_URL}); refuse a private IP
 * literal, since OkHttp does not ask the resolver about literals; send the GET, with names
 * resolved by {@code PublicOnlyDns}, which drops private addresses; read the status line and
 * headers, resolving a redirect's Location but not following it; skip a body whose type is not
 * accepted; read the body with {@code BodyReader}, which decompresses gzip and deflate itself and stops at
 * the cap. Every failure on the way becomes a {@link dev.crawler.fetch.FetchStatus} and a
 * short cause ({@code FetchFailure}).
 *
 * <p>Package-private helpers: {@code ContentTypeFilter} (media ranges), {@code RetryAfter}
 * (the header's two forms), {@code ExchangeTrace} (request headers and server address, from
 * OkHttp's events; it also closes a connection that {@code UnreadBytes} finds holding bytes no
 * response claimed, or whose response {@code ResponseFraming} finds ambiguously framed).
 */
package dev.crawler.fetch;
