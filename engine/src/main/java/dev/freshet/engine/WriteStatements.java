package dev.freshet.engine;

import dev.freshet.sql.parser.SqlCreateSecret;
import dev.freshet.sql.parser.SqlCreateSink;
import dev.freshet.sql.parser.SqlDropSecret;
import dev.freshet.sql.parser.SqlCreateStream;
import dev.freshet.sql.parser.SqlDropSink;
import dev.freshet.sql.parser.SqlDropStream;
import dev.freshet.sql.parser.SqlCreateTable;
import dev.freshet.sql.parser.SqlStopQuery;
import java.util.Optional;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.apache.calcite.sql.ddl.SqlDropMaterializedView;
import org.apache.calcite.sql.ddl.SqlDropTable;

/**
 * Which statements change what other connections see, and so are refused on a read-only
 * connection: INSERT, UPDATE, DELETE, CREATE and DROP of streams, views, sinks, tables and
 * secrets, STOP QUERY. Queries, SHOW, DESCRIBE,
 * EXPLAIN and SET (which changes only the session's own options) are not writes.
 *
 * <pre>{@code
 * WriteStatements.kind(Session.parse("INSERT INTO clicks VALUES (1)"));   // Optional[INSERT]
 * WriteStatements.kind(Session.parse("SELECT * FROM clicks"));            // Optional.empty
 * }</pre>
 */
final class WriteStatements {
  private WriteStatements() {
  }

  /** What kind of write {@code node} is, for an error message; empty if it is not a write. */
  static Optional<String> kind(SqlNode node) {
    if (node instanceof SqlInsert) {
      return Optional.of("INSERT");
    }
    if (node instanceof SqlCreateStream) {
      return Optional.of("CREATE STREAM");
    }
    if (node instanceof SqlDropStream) {
      return Optional.of("DROP STREAM");
    }
    if (node instanceof SqlCreateMaterializedView) {
      return Optional.of("CREATE MATERIALIZED VIEW");
    }
    if (node instanceof SqlDropMaterializedView) {
      return Optional.of("DROP MATERIALIZED VIEW");
    }
    if (node instanceof SqlCreateSink) {
      return Optional.of("CREATE SINK");
    }
    if (node instanceof SqlDropSink) {
      return Optional.of("DROP SINK");
    }
    if (node instanceof SqlUpdate) {
      return Optional.of("UPDATE");
    }
    if (node instanceof SqlDelete) {
      return Optional.of("DELETE");
    }
    if (node instanceof SqlCreateTable) {
      return Optional.of("CREATE TABLE");
    }
    if (node instanceof SqlDropTable) {
      return Optional.of("DROP TABLE");
    }
    if (node instanceof SqlStopQuery) {
      return Optional.of("STOP QUERY");
    }
    if (node instanceof SqlCreateSecret) {
      return Optional.of("CREATE SECRET");
    }
    if (node instanceof SqlDropSecret) {
      return Optional.of("DROP SECRET");
    }
    return Optional.empty();
  }
}
