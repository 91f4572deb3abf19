package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.engine.query.StatementResult;
import dev.freshet.executor.source.Source;
import dev.freshet.planner.catalog.StreamTable;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A plain query reads every stream at the offset it had when the query started: rows appended
 * while it runs, between two scans of the same stream, are not seen by either.
 */
class StreamSnapshotTest {
  private final Engine engine = new Engine("stream-snapshot-test");
  private final Session session = engine.openSession();

  @AfterEach void close() {
    engine.close();
  }

  @Test void shouldReadEveryScanOfAStreamAtTheOffsetTheQueryStartedWith() throws SQLException {
    GrowingSource source = new GrowingSource();
    engine.catalog().addStream(new StreamTable("S",
        f -> f.builder().add("K", SqlTypeName.VARCHAR).build(), Optional.empty(), Map.of(),
        source));
    // Two rows held when the query starts; each scan appends one more as it reads (an INSERT
    // landing while the query runs). Read at one offset, the self-join pairs 2 x 2 rows.
    StatementResult.Rows rows = (StatementResult.Rows) session.execute(
        "SELECT COUNT(*) FROM s a JOIN s b ON a.k = b.k");
    assertEquals(4L, rows.rows().get(0)[0]);
    assertEquals(2, source.reads, "both sides scanned the stream");
    // The next query starts later and sees the rows appended meanwhile: 4 x 4.
    rows = (StatementResult.Rows) session.execute("SELECT COUNT(*) FROM s a JOIN s b ON a.k = b.k");
    assertEquals(16L, rows.rows().get(0)[0]);
  }

  /** A stream of rows {@code 'x'}, one per offset, that gains an offset at each read. */
  private static final class GrowingSource implements Source {
    private final List<Object[]> rows = new ArrayList<>(List.of(new Object[] {"x"},
        new Object[] {"x"}));
    private int reads;

    @Override public String description() {
      return "GrowingSource";
    }

    @Override public synchronized long latestOffset() {
      return rows.size();
    }

    @Override public synchronized void readRange(long start, long end, Consumer<Object[]> out) {
      for (long offset = start + 1; offset <= end; offset++) {
        out.accept(rows.get((int) offset - 1));
      }
      reads++;
      rows.add(new Object[] {"x"});
    }

    @Override public AutoCloseable onNewData(Runnable listener) {
      return () -> { };
    }
  }
}
