package dev.freshet.jdbc;

import java.util.List;
import java.util.Random;

/**
 * Generates statements from a grammar of Freshet's SQL, valid and not: DDL, INSERTs, push and pull
 * queries with windows and aggregates, options, administration; with identifiers that exist or
 * not, literals of every type and of none, expressions that divide by zero or overflow, and
 * mangled text (cut, doubled, with stray tokens). Seeded, so a failure can be replayed.
 *
 * <pre>{@code
 * FreshetSqlGrammar grammar = new FreshetSqlGrammar(new Random(42));
 * String sql = grammar.statement();
 * }</pre>
 */
final class FreshetSqlGrammar {
  /** Streams the fuzz test declares before it starts, with their columns. */
  static final List<String> SETUP = List.of(
      "CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE, n INT, big BIGINT, ok BOOLEAN,"
          + " d DECIMAL(10, 2), ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)",
      "CREATE STREAM plain (k VARCHAR NOT NULL, v BIGINT)");

  private static final String[] STREAMS = {"clicks", "plain", "nosuch", "\"clicks\"", "sys.queries",
      "\"流\"", "CLICKS"};
  private static final String[] COLUMNS = {"user_id", "amount", "n", "big", "ok", "d", "ts", "k",
      "v", "nope", "\"user_id\"", "*", "window_start", "window_end", "列"};
  /** Columns of {@code clicks}, which most generated queries read. */
  private static final String[] CLICKS_COLUMNS = {"user_id", "amount", "n", "big", "ok", "d"};
  private static final String[] SIMPLE_LITERALS = {"1", "2", "0.5", "'a'", "'中文😀'", "NULL",
      "TRUE"};
  private static final String[] TYPES = {"VARCHAR", "INT", "BIGINT", "DOUBLE", "BOOLEAN",
      "DECIMAL(10, 2)", "TIMESTAMP(3)", "DATE", "TIME", "VARBINARY", "INTERVAL DAY", "GEOMETRY",
      "CHAR(3)", "DECIMAL(50, 2)", "FLOAT", "TINYINT", "SMALLINT", "REAL", "ARRAY", "BLOB"};
  private static final String[] LITERALS = {"1", "0", "-1", "9223372036854775807",
      "99999999999999999999999", "1.5", "1e308", "-0.0", "'a'", "''", "'it''s'", "'中文😀'",
      "NULL", "TRUE", "FALSE", "DATE '2026-01-01'", "TIMESTAMP '2026-01-01 00:00:00'",
      "TIMESTAMP '2026-13-45 99:00:00'", "INTERVAL '1' SECOND", "X'FF'", "'2026-01-01'",
      "CAST(NULL AS INT)", "?", "2147483647", "'\\'", "'%'", "N'x'"};
  private static final String[] FUNCTIONS = {"COUNT", "SUM", "MIN", "MAX", "AVG", "COUNT(DISTINCT",
      "STDDEV", "LISTAGG", "UPPER", "LOWER", "ABS", "MOD", "CHAR_LENGTH", "SUBSTRING", "COALESCE",
      "FLOOR", "CEIL", "NULLIF", "CURRENT_TIMESTAMP", "NOSUCHFN", "ROW_NUMBER"};
  private static final String[] OPERATORS = {"+", "-", "*", "/", "%", "||", "=", "<>", "<", ">=",
      "AND", "OR", "LIKE", "IS", "IN", "BETWEEN"};
  private static final String[] INTERVALS = {"INTERVAL '1' SECOND", "INTERVAL '10' SECOND",
      "INTERVAL '1' MINUTE", "INTERVAL '1' HOUR", "INTERVAL '0' SECOND", "INTERVAL '-1' SECOND",
      "INTERVAL '1' MONTH", "INTERVAL '2' DAY", "1", "'x'"};
  private static final String[] OPTIONS = {"'state.partitions'", "'trigger'", "'trigger.interval'",
      "'state.store.provider'", "'min.batches.to.retain'", "'push.batch.markers'",
      "'push.buffer.rows'", "'nosuch.option'", "''"};
  private static final String[] OPTION_VALUES = {"'1'", "'4'", "'0'", "'-3'", "'100000000000'",
      "'processing-time'", "'once'", "'available-now'", "'1 second'", "'memory'", "'mvstore'",
      "'true'", "'false'", "'x'", "''", "'中文'"};
  private static final String[] NOISE = {"(", ")", ",", "SELECT", "FROM", "GROUP", "BY", "STREAM",
      "EMIT", ";", "'", "\"", "--", "/*", "*/", "WITH", "AS", "TABLE", "DESCRIPTOR", "\\", "$",
      "`", "@", "#", "??", "NULL", "\u0000", "\uFEFF", "😀"};

  private final Random random;

  FreshetSqlGrammar(Random random) {
    this.random = random;
  }

  /** One statement, valid or not. */
  String statement() {
    String sql = switch (random.nextInt(14)) {
      case 0 -> createStream();
      case 1, 2 -> insert();
      case 3, 4 -> pushQuery();
      case 5, 6 -> pullQuery();
      case 7 -> createView();
      case 8 -> administration();
      case 9 -> "SET " + pick(OPTIONS) + " = " + pick(OPTION_VALUES);
      case 10 -> "EXPLAIN PLAN FOR " + pushQuery();
      default -> mangle(random.nextBoolean() ? pushQuery() : insert());
    };
    return sql;
  }

  private String createStream() {
    StringBuilder sql = new StringBuilder("CREATE STREAM ");
    if (random.nextInt(4) == 0) {
      sql.append("IF NOT EXISTS ");
    }
    sql.append(random.nextBoolean() ? "f" + random.nextInt(5) : pick(STREAMS)).append(" (");
    int columns = random.nextInt(4);
    for (int i = 0; i < columns; i++) {
      sql.append(i == 0 ? "" : ", ").append(random.nextInt(6) == 0 ? pick(COLUMNS) : "c" + i)
          .append(' ').append(pick(TYPES)).append(random.nextInt(4) == 0 ? " NOT NULL" : "");
    }
    if (random.nextInt(3) == 0) {
      sql.append(", WATERMARK FOR ").append(random.nextBoolean() ? "c0" : pick(COLUMNS))
          .append(" AS ").append(random.nextBoolean() ? "c0" : pick(COLUMNS)).append(" - ")
          .append(pick(INTERVALS));
    }
    sql.append(')');
    switch (random.nextInt(5)) {
      case 0 -> sql.append(" WITH (connector = 'memory')");
      case 1 -> sql.append(" WITH (connector = 'sequence', 'end' = '")
          .append(random.nextInt(2000)).append("')");
      case 2 -> sql.append(" WITH (connector = ").append(pick(OPTION_VALUES)).append(')');
      case 3 -> sql.append(" WITH (").append(pick(OPTIONS)).append(" = ")
          .append(pick(OPTION_VALUES)).append(')');
      default -> { }
    }
    return sql.toString();
  }

  private String insert() {
    String stream = random.nextInt(5) == 0 ? pick(STREAMS) : random.nextBoolean() ? "plain"
        : "clicks";
    StringBuilder sql = new StringBuilder("INSERT INTO ").append(stream);
    if (random.nextInt(4) == 0) {
      sql.append(" (").append(pick(COLUMNS)).append(", ").append(pick(COLUMNS)).append(')');
    }
    sql.append(" VALUES ");
    int rows = 1 + random.nextInt(3);
    for (int r = 0; r < rows; r++) {
      sql.append(r == 0 ? "" : ", ").append('(');
      int values = stream.equals("plain") && random.nextInt(3) > 0 ? 2 : random.nextInt(9);
      for (int v = 0; v < values; v++) {
        sql.append(v == 0 ? "" : ", ").append(random.nextInt(4) == 0 ? expression(2)
            : random.nextBoolean() ? pick(LITERALS) : pick(SIMPLE_LITERALS));
      }
      sql.append(')');
    }
    return sql.toString();
  }

  private String pushQuery() {
    StringBuilder sql = new StringBuilder("SELECT STREAM ");
    boolean window = random.nextInt(3) == 0;
    String key = window ? "window_start"
        : random.nextInt(5) > 0 ? pick(CLICKS_COLUMNS) : pick(COLUMNS);
    sql.append(key).append(", ").append(aggregate()).append(" AS a FROM ");
    if (window) {
      String size = pick(INTERVALS);
      sql.append(random.nextBoolean()
          ? "TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), " + size + "))"
          : "TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND, " + size + "))");
    } else {
      sql.append(random.nextInt(6) == 0 ? pick(STREAMS) : "clicks");
    }
    if (random.nextBoolean()) {
      sql.append(" WHERE ").append(expression(2));
    }
    if (random.nextInt(6) > 0) {
      sql.append(" GROUP BY ").append(key);
    }
    if (random.nextInt(4) == 0) {
      sql.append(" HAVING ").append(expression(1));
    }
    if (random.nextInt(3) == 0) {
      sql.append(" EMIT ").append(random.nextBoolean() ? "UPDATE"
          : random.nextBoolean() ? "APPEND" : "COMPLETE");
    }
    return sql.toString();
  }

  private String pullQuery() {
    StringBuilder sql = new StringBuilder("SELECT ");
    sql.append(random.nextBoolean() ? expression(2) : pick(COLUMNS));
    if (random.nextInt(5) > 0) {
      sql.append(" FROM ").append(pick(STREAMS));
      if (random.nextBoolean()) {
        sql.append(" WHERE ").append(expression(3));
      }
      if (random.nextInt(3) == 0) {
        sql.append(" ORDER BY 1 LIMIT ").append(pick(LITERALS));
      }
    }
    return sql.toString();
  }

  private String createView() {
    return "CREATE MATERIALIZED VIEW " + (random.nextBoolean() ? "v" + random.nextInt(3)
        : pick(STREAMS)) + " AS " + pushQuery().replace("SELECT STREAM", "SELECT");
  }

  private String administration() {
    return switch (random.nextInt(9)) {
      case 0 -> "SHOW STREAMS";
      case 1 -> "SHOW VIEWS";
      case 2 -> "SHOW QUERIES";
      case 3 -> "DESCRIBE " + pick(STREAMS);
      case 4 -> "STOP QUERY " + (random.nextBoolean() ? "'x'" : "v" + random.nextInt(3));
      case 5 -> "DROP MATERIALIZED VIEW " + (random.nextBoolean() ? "IF EXISTS " : "") + "v"
          + random.nextInt(3);
      case 6 -> "DROP STREAM " + (random.nextBoolean() ? "IF EXISTS " : "") + "f"
          + random.nextInt(5);
      case 7 -> "RESET " + pick(OPTIONS);
      default -> "SELECT * FROM sys." + (random.nextBoolean() ? "queries" : "query_progress");
    };
  }

  private String aggregate() {
    String function = random.nextBoolean() ? pick(FUNCTIONS)
        : pick(new String[] {"COUNT", "SUM", "MIN", "MAX"});
    String argument = random.nextInt(4) == 0 ? "*"
        : random.nextBoolean() ? pick(CLICKS_COLUMNS) : expression(1);
    return function + (function.endsWith("(DISTINCT") ? " " : "(") + argument + ")";
  }

  /** An expression of at most {@code depth} levels of operators. */
  private String expression(int depth) {
    if (depth == 0 || random.nextInt(3) == 0) {
      return switch (random.nextInt(6)) {
        case 0 -> pick(LITERALS);
        case 1 -> pick(COLUMNS);
        case 2, 3 -> pick(SIMPLE_LITERALS);
        default -> pick(CLICKS_COLUMNS);
      };
    }
    return switch (random.nextInt(5)) {
      case 0 -> "CAST(" + expression(depth - 1) + " AS " + pick(TYPES) + ")";
      case 1 -> random.nextBoolean() ? pick(FUNCTIONS) + "(" + expression(depth - 1) + ")"
          : pick(CLICKS_COLUMNS) + " IS NOT NULL";
      case 2 -> "(" + expression(depth - 1) + ")";
      default -> expression(depth - 1) + " " + pick(OPERATORS) + " " + expression(depth - 1);
    };
  }

  /** {@code sql} cut, doubled, or with a stray token inserted or a character replaced. */
  private String mangle(String sql) {
    int at = random.nextInt(sql.length() + 1);
    return switch (random.nextInt(4)) {
      case 0 -> sql.substring(0, at);
      case 1 -> sql + " " + sql;
      case 2 -> sql.substring(0, at) + " " + pick(NOISE) + " " + sql.substring(at);
      default -> at == sql.length() ? sql + pick(NOISE)
          : sql.substring(0, at) + pick(NOISE) + sql.substring(at + 1);
    };
  }

  private String pick(String[] choices) {
    return choices[random.nextInt(choices.length)];
  }
}
