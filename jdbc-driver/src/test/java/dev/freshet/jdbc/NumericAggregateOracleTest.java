package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.testkit.oracle.H2Oracle;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential test of every aggregate function over every numeric type the executor supports
 * (INTEGER, BIGINT, DOUBLE, DECIMAL), plain, DISTINCT, with FILTER and without GROUP BY: random
 * rows in random batches go to a Freshet push query (UPDATE mode) and to H2; after every batch,
 * the push rows folded into a table (last row per key) must equal H2 running the same query over
 * every row inserted so far.
 *
 * <p>Freshet types results as Spark does and H2 does not (SUM of INTEGER is a BIGINT in both, but
 * SUM of BIGINT is a NUMERIC in H2; AVG of DECIMAL(10, 2) is a DECIMAL(14, 6) in Freshet and a
 * NUMERIC(20, 12) in H2), so values are compared as numbers, in the type Freshet declares: exact
 * types exactly, H2's decimals rounded half up to Freshet's scale, and approximate numbers to 10
 * significant digits, because a DOUBLE average is not the exact quotient H2 computes.
 */
class NumericAggregateOracleTest {
  /**
   * A query in SQL that both engines accept.
   *
   * @param keyColumns number of leading key columns; 0 for a global aggregate
   * @param where which rows reach the aggregate, for knowing which keys a batch touches
   */
  record Shape(String name, String sql, int keyColumns, Predicate<Object[]> where) {
    @Override public String toString() {
      return name;
    }
  }

  private static final String COLUMNS = "k VARCHAR, i INTEGER, b BIGINT, d DOUBLE,"
      + " m DECIMAL(10, 2)";

  static List<Arguments> cases() {
    List<Shape> shapes = List.of(
        new Shape("every aggregate of every numeric type",
            "SELECT k, COUNT(*), COUNT(i), SUM(i), MIN(i), MAX(i), AVG(i),"
                + " COUNT(b), SUM(b), MIN(b), MAX(b), AVG(b),"
                + " COUNT(d), SUM(d), MIN(d), MAX(d), AVG(d),"
                + " COUNT(m), SUM(m), MIN(m), MAX(m), AVG(m) FROM s GROUP BY k", 1, r -> true),
        new Shape("distinct aggregates",
            "SELECT k, COUNT(DISTINCT i), SUM(DISTINCT i), AVG(DISTINCT i),"
                + " COUNT(DISTINCT b), SUM(DISTINCT b), AVG(DISTINCT b),"
                + " COUNT(DISTINCT d), SUM(DISTINCT d), AVG(DISTINCT d),"
                + " COUNT(DISTINCT m), SUM(DISTINCT m), AVG(DISTINCT m), MAX(DISTINCT m)"
                + " FROM s GROUP BY k", 1, r -> true),
        new Shape("filtered aggregates",
            "SELECT k, COUNT(*) FILTER (WHERE i > 5), SUM(b) FILTER (WHERE d < 0),"
                + " AVG(m) FILTER (WHERE i > 5), MIN(d) FILTER (WHERE m > 0),"
                + " COUNT(DISTINCT i) FILTER (WHERE m < 0), SUM(m) FILTER (WHERE b IS NULL)"
                + " FROM s GROUP BY k", 1, r -> true),
        new Shape("global aggregate after a WHERE",
            "SELECT COUNT(*), SUM(i), AVG(b), SUM(d), MAX(m), AVG(m), COUNT(DISTINCT i)"
                + " FROM s WHERE i > 10", 0, r -> r[1] != null && (Integer) r[1] > 10));
    List<Arguments> cases = new ArrayList<>();
    for (Shape shape : shapes) {
      for (long seed : new long[] {1L, 42L, System.nanoTime()}) {
        cases.add(Arguments.of(shape, seed));
      }
    }
    return cases;
  }

  @ParameterizedTest(name = "{0}, seed {1}")
  @MethodSource("cases")
  void shouldMatchH2AfterEveryBatch(Shape shape, long seed) throws Exception {
    Random random = new Random(seed);
    String context = shape + ", seed " + seed;
    try (Connection freshet = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         H2Oracle h2 = new H2Oracle();
         Statement fs = freshet.createStatement();
         Statement query = freshet.createStatement()) {
      fs.execute("CREATE STREAM s (" + COLUMNS + ") WITH (connector = 'memory')");
      h2.createTable("s", COLUMNS);
      try (ResultSet rs = query.executeQuery(shape.sql().replace("SELECT ", "SELECT STREAM ")
          + " EMIT UPDATE")) {
        ResultSetMetaData types = rs.getMetaData();
        Map<List<Object>, List<Object>> folded = new TreeMap<>(
            (x, y) -> x.toString().compareTo(y.toString()));
        int batches = 8 + random.nextInt(5);
        for (int batch = 0; batch < batches; batch++) {
          List<Object[]> rows = randomRows(random);
          String values = toValues(rows);
          fs.executeUpdate("INSERT INTO s VALUES " + values);
          h2.execute("INSERT INTO s VALUES " + values);
          for (List<Object> row : PushResults.readData(rs, touchedKeys(shape, rows))) {
            List<Object> normalized = normalize(row, types);
            folded.put(normalized.subList(0, shape.keyColumns()), normalized);
          }
          Map<List<Object>, List<Object>> expected = new TreeMap<>(
              (x, y) -> x.toString().compareTo(y.toString()));
          for (List<Object> h : h2.query(shape.sql())) {
            List<Object> row = normalize(h, types);
            expected.put(row.subList(0, shape.keyColumns()), row);
          }
          assertEquals(expected, folded, context + ", after batch " + batch);
        }
      }
    }
  }

  /** Rows a batch emits in UPDATE mode: one per key it touched; a global aggregate always one. */
  private static int touchedKeys(Shape shape, List<Object[]> rows) {
    if (shape.keyColumns() == 0) {
      return 1;
    }
    Set<Object> touched = new HashSet<>();
    for (Object[] row : rows) {
      if (shape.where().test(row)) {
        touched.add(row[0]);
      }
    }
    return touched.size();
  }

  /** Each number as a string in the terms of the type Freshet gives its column (see above). */
  private static List<Object> normalize(List<Object> row, ResultSetMetaData types)
      throws Exception {
    List<Object> result = new ArrayList<>();
    for (int c = 0; c < row.size(); c++) {
      Object v = row.get(c);
      if (!(v instanceof Number)) {
        result.add(v);
        continue;
      }
      BigDecimal n = new BigDecimal(v.toString());
      switch (types.getColumnType(c + 1)) {
      case Types.DECIMAL:
        n = n.setScale(types.getScale(c + 1), RoundingMode.HALF_UP);
        break;
      case Types.DOUBLE:
      case Types.FLOAT:
      case Types.REAL:
        n = n.round(new MathContext(10));
        break;
      default:
        break;
      }
      result.add(n.stripTrailingZeros().toPlainString());
    }
    return result;
  }

  /** Few distinct values per column, so that DISTINCT has duplicates to remove. */
  private static List<Object[]> randomRows(Random random) {
    int n = 1 + random.nextInt(25);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(new Object[] {
          "k" + random.nextInt(5),
          random.nextInt(8) == 0 ? null : random.nextInt(21) - 5,
          random.nextInt(8) == 0 ? null : (random.nextInt(41) - 20) * 1_000_000_007L,
          random.nextInt(8) == 0 ? null : (random.nextInt(81) - 20) / 4.0,
          random.nextInt(8) == 0 ? null : BigDecimal.valueOf(random.nextInt(4001) - 1000, 2)});
    }
    return rows;
  }

  private static String toValues(List<Object[]> rows) {
    StringBuilder sb = new StringBuilder();
    for (Object[] row : rows) {
      sb.append(sb.length() == 0 ? "(" : ", (").append('\'').append(row[0]).append('\'');
      for (int c = 1; c < row.length; c++) {
        Object v = row[c];
        sb.append(", ").append(v instanceof BigDecimal ? ((BigDecimal) v).toPlainString() : v);
      }
      sb.append(')');
    }
    return sb.toString().replace("null", "NULL");
  }
}
