/**
 * Freshet's SQL types, one descriptor each ({@link dev.freshet.common.types.SqlType}), and the
 * binary forms of their values ({@link dev.freshet.common.types.ValueCodec}).
 *
 * <h2>Two row encodings</h2>
 *
 * <p>Freshet writes rows in two encodings, each for its own job, and both write a value's body
 * as its type's {@code ValueCodec} does:
 * <ul>
 *   <li><b>The self-describing encoding</b> ({@code dev.freshet.executor.state.StateCodec}): a
 *       tag byte before each value, so that a reader needs no schema. It is for what the
 *       executor writes without a schema at hand: state keys and values (delta and snapshot
 *       files, MVStore state), group keys, and the rows of a stream's log (whose framing,
 *       record lengths and checksums, is the log's own and holds rows in this encoding).
 *   <li><b>The column-typed encoding</b> ({@code dev.freshet.engine.store.StoredColumnType}):
 *       a null flag, then the body, driven by the view's column types, for a view's change
 *       log. A value is written as its column holds it (a decimal rounded to the column's
 *       scale), so that a replayed change equals a row read from the result table.
 * </ul>
 * {@code PackedRow} ({@code executor.state.internals}) is not an encoding: it is a smaller heap
 * form of rows of longs and doubles, never written to a file.
 */
package dev.freshet.common.types;
