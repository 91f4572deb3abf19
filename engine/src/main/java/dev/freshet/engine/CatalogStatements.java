package dev.freshet.engine;

import dev.freshet.engine.errors.Failures;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.security.StatementSecrets;
import dev.freshet.engine.store.CatalogStore;
import dev.freshet.sql.parser.SqlCreateSink;
import dev.freshet.sql.parser.SqlCreateStream;
import dev.freshet.sql.parser.SqlCreateTable;
import dev.freshet.sql.parser.SqlDropSink;
import dev.freshet.sql.parser.SqlDropStream;
import dev.freshet.sql.parser.SqlWithOptions;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.apache.calcite.sql.ddl.SqlDropMaterializedView;
import org.apache.calcite.sql.ddl.SqlDropTable;

/**
 * The {@link StatementHandler}s of the statements that create and drop streams, tables, views
 * and sinks. Each hands its statement to the object's {@code *Ddl} class; those whose
 * {@code WITH} clause may name secrets resolve them first, and keep their values out of every
 * error ({@link StatementSecrets}).
 */
final class CatalogStatements {
  private CatalogStatements() {
  }

  static StatementResult createStream(StatementContext context, SqlCreateStream create)
      throws SQLException {
    Engine engine = context.engine();
    String name = StreamDdl.simpleName(create.name());
    StatementSecrets secrets = secrets(context, name, create);
    synchronized (engine.ddlLock()) {
      boolean creates = !engine.catalog().contains(name);
      hidingSecrets(secrets, () -> {
        StreamDdl.create(engine, create, secrets.options());
        if (creates) {
          secrets.store();
        }
      });
      engine.catalogStore().record(CatalogStore.Kind.STREAM, name, secrets.sql(), Map.of());
    }
    return done();
  }

  static StatementResult dropStream(StatementContext context, SqlDropStream drop)
      throws SQLException {
    Engine engine = context.engine();
    synchronized (engine.ddlLock()) {
      StreamDdl.drop(engine, drop);
      engine.catalogStore().remove(StreamDdl.simpleName(drop.name()));
      engine.secrets().dropped(StreamDdl.simpleName(drop.name()));
    }
    return done();
  }

  static StatementResult createTable(StatementContext context, SqlCreateTable create)
      throws SQLException {
    StatementSecrets secrets = secrets(context, StreamDdl.simpleName(create.name()), create);
    hidingSecrets(secrets, () -> TableDdl.create(context.engine(), create, secrets));
    return done();
  }

  static StatementResult dropTable(StatementContext context, SqlDropTable drop)
      throws SQLException {
    TableDdl.drop(context.engine(), drop);
    return done();
  }

  static StatementResult createView(StatementContext context, SqlCreateMaterializedView create)
      throws SQLException {
    return new StatementResult.UpdateCount(0, MaterializedViewDdl.create(context.engine(),
        context.options(), create, context.sql()));
  }

  static StatementResult dropView(StatementContext context, SqlDropMaterializedView drop)
      throws SQLException {
    MaterializedViewDdl.drop(context.engine(), drop);
    return done();
  }

  static StatementResult createSink(StatementContext context, SqlCreateSink create)
      throws SQLException {
    StatementSecrets secrets = secrets(context, StreamDdl.simpleName(create.name()), create);
    List<String> warnings = new ArrayList<>();
    hidingSecrets(secrets, () -> warnings.addAll(
        SinkDdl.create(context.engine(), context.options(), create, secrets)));
    return new StatementResult.UpdateCount(0, warnings);
  }

  static StatementResult dropSink(StatementContext context, SqlDropSink drop)
      throws SQLException {
    SinkDdl.drop(context.engine(), drop);
    return done();
  }

  private static StatementResult done() {
    return new StatementResult.UpdateCount(0);
  }

  /**
   * The secrets of a statement that creates {@code object}: its options with the values of the
   * secrets it names, which the statement's user must be allowed to use.
   */
  private static StatementSecrets secrets(StatementContext context, String object,
      SqlWithOptions statement) throws SQLException {
    return StatementSecrets.of(context.engine().secrets(), context.principal(), object,
        statement, context.sql());
  }

  /** A statement's step that handles the values of its secrets. */
  private interface SecretsStep {
    void run() throws SQLException;
  }

  /**
   * Runs {@code step}, whose errors (a connector's, say) never quote the values of the secrets
   * the statement names.
   */
  private static void hidingSecrets(StatementSecrets secrets, SecretsStep step)
      throws SQLException {
    try {
      step.run();
    } catch (SQLException e) {
      throw secrets.scrub(e);
    } catch (RuntimeException e) {
      throw secrets.scrub(Failures.toSqlException(e));
    }
  }
}
