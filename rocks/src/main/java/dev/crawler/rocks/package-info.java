/**
 * RocksDB's native library for every store of the crawler (frontier, URL-seen store, small
 * stores): unpacked once per RocksDB version and platform into the crawler's cache folder, and
 * loaded from there, so that no process, killed or not, leaves a copy in {@code java.io.tmpdir}.
 * {@link dev.crawler.rocks.RocksLibrary#load()} is the one way in.
 */
package dev.crawler.rocks;
