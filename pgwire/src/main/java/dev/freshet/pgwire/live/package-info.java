/**
 * Live results over the PostgreSQL endpoint, Materialize's {@code SUBSCRIBE} style: what a
 * statement asks for ({@link dev.freshet.pgwire.live.LiveStatement}: {@code COPY (SELECT STREAM
 * ...) TO STDOUT}, {@code DECLARE}/{@code FETCH}/{@code CLOSE}, {@code WITH (since_version = N)}),
 * COPY's text and CSV rows ({@link dev.freshet.pgwire.live.CopyFormat}), and the pump that moves
 * a push query's rows to a connection without holding a thread while none come
 * ({@link dev.freshet.pgwire.live.LivePump}). Knows no protocol message: the protocol package
 * drives it.
 */
package dev.freshet.pgwire.live;
