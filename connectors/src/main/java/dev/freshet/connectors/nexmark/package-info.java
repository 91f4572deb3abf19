/**
 * The Nexmark connector: the Nexmark benchmark's persons, auctions and bids, generated. What a
 * user sees is in docs/sql.md ("Nexmark streams").
 *
 * <p><b>Source</b> ({@code CREATE STREAM bid (...) WITH (connector = 'nexmark', 'event.type' =
 * 'bid', ...)}, {@link dev.freshet.connectors.nexmark.NexmarkSpec}):
 * {@link dev.freshet.connectors.nexmark.NexmarkSource} generates event {@code n} from its offset
 * alone ({@link dev.freshet.connectors.nexmark.NexmarkGenerator}), so a batch read again after a
 * restart holds the same rows. It has no sink.
 */
package dev.freshet.connectors.nexmark;
