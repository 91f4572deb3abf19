package dev.freshet.pgwire.protocol;

import dev.freshet.engine.query.ResultColumn;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes a result as RowDescription and DataRow messages, each column in the format the client
 * asked for.
 */
final class Rows {
  private Rows() {
  }

  /**
   * The columns of {@code columns} as the client sees them; {@code formats} as Bind gives them:
   * none (all text), one (for all), or one per column.
   */
  static PgColumn[] columns(List<ResultColumn> columns, short[] formats) throws ProtocolViolation {
    if (formats.length > 1 && formats.length != columns.size()) {
      throw new ProtocolViolation("08P01", "Bind asked for " + formats.length
          + " result formats for " + columns.size() + " columns. Send none, one, or one per"
          + " column");
    }
    PgColumn[] pg = new PgColumn[columns.size()];
    for (int i = 0; i < pg.length; i++) {
      int format = formats.length == 0 ? PgColumn.TEXT
          : formats.length == 1 ? formats[0] : formats[i];
      if (format != PgColumn.TEXT && format != PgColumn.BINARY) {
        throw new ProtocolViolation("08P01", "Unknown result format " + format
            + ". Use 0 (text) or 1 (binary)");
      }
      pg[i] = PgColumn.of(columns.get(i), format);
    }
    return pg;
  }

  static void rowDescription(MessageWriter out, PgColumn[] columns) {
    out.begin('T').int16(columns.length);
    for (PgColumn c : columns) {
      out.cstring(c.name()).int32(0).int16(0).int32(c.oid()).int16(c.typlen()).int32(c.typmod())
          .int16(c.binary() ? PgColumn.BINARY : PgColumn.TEXT);
    }
    out.end();
  }

  static void dataRow(MessageWriter out, PgColumn[] columns, Object[] row,
      PgValues.Formats formats) {
    out.begin('D').int16(columns.length);
    ByteBuf buf = out.buffer();
    for (int i = 0; i < columns.length; i++) {
      Object value = row[i];
      if (value == null) {
        buf.writeInt(-1);
        continue;
      }
      PgColumn column = columns[i];
      int lengthAt = buf.writerIndex();
      buf.writeInt(0);
      if (column.type() == null) {
        // A PostgreSQL-only type of a catalog result: by its OID.
        if (column.binary()) {
          CatalogValues.binary(column.oid(), value, buf);
        } else {
          buf.writeCharSequence(CatalogValues.text(column.oid(), value), StandardCharsets.UTF_8);
        }
      } else if (column.binary()) {
        PgValues.binary(column.type(), value, buf, formats);
      } else {
        buf.writeCharSequence(PgValues.text(column.type(), value, formats),
            StandardCharsets.UTF_8);
      }
      buf.setInt(lengthAt, buf.writerIndex() - lengthAt - 4);
    }
    out.end();
  }
}
