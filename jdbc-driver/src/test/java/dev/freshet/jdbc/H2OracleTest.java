package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.testkit.oracle.H2Oracle;
import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential test: random rows in random batches go to a Freshet push query (UPDATE mode) and
 * to H2; after every batch, the push rows folded into a table (last row per key) must equal H2
 * running the same GROUP BY as a batch query over every row inserted so far.
 */
class H2OracleTest {
  /** A query in SQL both engines accept, and how to compute its key and filter in Java. */
  record Shape(String name, String sql, int keyColumns, Function<Object[], Object> key,
      java.util.function.Predicate<Object[]> filter) {
    @Override public String toString() {
      return name;
    }
  }

  static List<Arguments> cases() {
    List<Shape> shapes = List.of(
        new Shape("one key, every aggregate",
            "SELECT k, COUNT(*), COUNT(v), SUM(v), MIN(v), MAX(v), AVG(d), SUM(d) FROM s"
                + " GROUP BY k", 1, r -> r[0], r -> true),
        new Shape("two keys with a filter",
            "SELECT k, k2, COUNT(*), SUM(v), MAX(d) FROM s WHERE v > 10 OR d < 0"
                + " GROUP BY k, k2", 2, r -> List.of(r[0], r[1]),
            r -> (r[2] != null && (Integer) r[2] > 10) || (Double) r[3] < 0),
        new Shape("grouping expression",
            "SELECT UPPER(k2) || '-' || k, MIN(k), COUNT(d), AVG(v) FROM s GROUP BY"
                + " UPPER(k2) || '-' || k", 1,
            r -> ((String) r[1]).toUpperCase(java.util.Locale.ROOT) + "-" + r[0], r -> true));
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
      fs.execute("CREATE STREAM s (k VARCHAR, k2 VARCHAR, v INTEGER, d DOUBLE)"
          + " WITH (connector = 'memory')");
      h2.createTable("s", "k VARCHAR, k2 VARCHAR, v INTEGER, d DOUBLE");
      try (ResultSet rs = query.executeQuery(shape.sql().replace("SELECT ", "SELECT STREAM ")
          + " EMIT UPDATE")) {
        TreeMap<Object, List<Object>> folded =
            new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        int batches = 8 + random.nextInt(5);
        for (int batch = 0; batch < batches; batch++) {
          List<Object[]> rows = randomRows(random);
          String values = toValues(rows);
          fs.executeUpdate("INSERT INTO s VALUES " + values);
          h2.execute("INSERT INTO s VALUES " + values);
          Set<Object> touched = new HashSet<>();
          for (Object[] row : rows) {
            if (shape.filter().test(row)) {
              touched.add(shape.key().apply(row));
            }
          }
          for (List<Object> row : PushResults.readData(rs, touched.size())) {
            folded.put(keyOf(row, shape.keyColumns()), normalize(row));
          }
          Map<Object, List<Object>> expected = new TreeMap<>(folded.comparator());
          for (List<Object> h : h2.query(shape.sql())) {
            List<Object> row = normalize(h);
            expected.put(keyOf(row, shape.keyColumns()), row);
          }
          assertEquals(expected, folded, context + ", after batch " + batch);
        }
      }
    }
  }

  private static Object keyOf(List<Object> row, int keyColumns) {
    return keyColumns == 1 ? row.get(0) : row.subList(0, keyColumns);
  }

  /** Numbers compared by value with 12 significant digits; H2 and Freshet type SUM/AVG apart. */
  private static List<Object> normalize(List<Object> row) {
    List<Object> result = new ArrayList<>();
    for (Object v : row) {
      result.add(v instanceof Number
          ? new BigDecimal(v.toString()).round(new MathContext(12)).stripTrailingZeros()
              .toPlainString()
          : v);
    }
    return result;
  }

  private static List<Object[]> randomRows(Random random) {
    int n = 1 + random.nextInt(25);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(new Object[] {
          "k" + random.nextInt(6),
          random.nextBoolean() ? "x" : "y",
          random.nextInt(10) == 0 ? null : random.nextInt(40) - 5,
          Math.round((random.nextDouble() * 200 - 50) * 4) / 4.0});
    }
    return rows;
  }

  private static String toValues(List<Object[]> rows) {
    StringBuilder sb = new StringBuilder();
    for (Object[] row : rows) {
      sb.append(sb.length() == 0 ? "" : ", ").append("('").append(row[0]).append("', '")
          .append(row[1]).append("', ").append(row[2] == null ? "NULL" : row[2]).append(", ")
          .append(row[3]).append(")");
    }
    return sb.toString();
  }
}
