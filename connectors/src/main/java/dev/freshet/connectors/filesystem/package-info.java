/**
 * The filesystem connector: the files a directory receives as a stream. What a user sees is in
 * docs/sql.md ("Filesystem streams"), which directories a server allows in docs/security.md
 * ("Connectors").
 *
 * <p><b>Source</b> ({@code CREATE STREAM s (...) WITH (connector = 'filesystem', 'path' = ...,
 * 'format' = 'csv' | 'json', ...)}, {@link dev.freshet.connectors.filesystem.FileSourceSpec}):
 * {@link dev.freshet.connectors.filesystem.FileSystemSource} describes the directory, and each
 * query reads it with a {@link dev.freshet.connectors.filesystem.FileQueryReader} of its own,
 * whose offsets are positions in the durable list of the files it has seen
 * ({@link dev.freshet.connectors.filesystem.FileSourceLog}). Lines become rows through the
 * shared record formats ({@code connectors.format}). It has no sink.
 */
package dev.freshet.connectors.filesystem;
