package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SessionTest {
  private final Engine engine = new Engine("session-test");
  private final Session session = engine.openSession();

  @AfterEach void close() {
    engine.close();
  }

  @Test void shouldStreamUpdatedRowsWhenRowsAreInserted() throws Exception {
    session.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE) WITH (connector = 'memory')");
    StatementResult.Push push = (StatementResult.Push) session.execute(
        "SELECT STREAM user_id, COUNT(*) AS n, SUM(amount) AS total, AVG(amount) AS a FROM clicks"
            + " WHERE amount > 0 GROUP BY user_id EMIT UPDATE");
    assertEquals(List.of("USER_ID", "N", "TOTAL", "A"),
        push.columns().stream().map(ResultColumn::name).toList());
    session.execute("INSERT INTO clicks VALUES ('a', 1), ('b', 2)");
    Object[] r1 = push.query().query() == null ? null : next(push);
    Object[] r2 = next(push);
    assertTrue(java.util.Arrays.asList(r1[0], r2[0]).containsAll(List.of("a", "b")));
    session.execute("INSERT INTO clicks VALUES ('a', 3)");
    assertArrayEquals(new Object[] {"a", 2L, 4.0, 2.0}, next(push));
    StatementResult.Rows rows = (StatementResult.Rows) session.execute(
        "SELECT user_id, COUNT(*) FROM clicks GROUP BY user_id");
    assertEquals(2, rows.rows().size());
    push.query().close();
  }

  private static Object[] next(StatementResult.Push push) throws Exception {
    Object[] row = push.query().next(Duration.ofSeconds(30));
    assertTrue(row != null, "no row within 30 s");
    return row;
  }
}
