package dev.freshet.planner.rel;

import dev.freshet.planner.catalog.StreamTable;
import java.util.Optional;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;

/** Utilities about relational expressions over streams. */
public final class StreamingRels {
  private StreamingRels() {
  }

  /** Whether {@code rel} reads a stream anywhere below it (looking through planner vertices). */
  public static boolean isStreaming(RelNode rel) {
    RelNode r = rel.stripped();
    if (r instanceof TableScan) {
      return streamOf((TableScan) r).isPresent();
    }
    for (RelNode input : r.getInputs()) {
      if (isStreaming(input)) {
        return true;
      }
    }
    return false;
  }

  /** The stream a scan reads, if it reads one. */
  public static Optional<StreamTable> streamOf(TableScan scan) {
    return Optional.ofNullable(scan.getTable().unwrap(StreamTable.class));
  }
}
