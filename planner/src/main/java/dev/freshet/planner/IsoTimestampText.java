package dev.freshet.planner;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;

/**
 * Reads a text that a query compares with or casts to a {@code TIMESTAMP} in ISO 8601's form
 * with a {@code T} and a zone, as BI tools write a time range (Grafana's {@code $__timeFilter}:
 * {@code ts BETWEEN '2026-12-07T22:00:00Z' AND '2026-12-07T23:00:00Z'}), which Calcite's cast
 * refuses: the text is rewritten to SQL's form, an offset taken to UTC, which is how Freshet
 * reads a TIMESTAMP without a zone everywhere else (JSON, CSV, Kafka).
 *
 * <pre>{@code
 * CAST('2026-12-07T22:00:00Z' AS TIMESTAMP(3))        -> CAST('2026-12-07 22:00:00' AS ...)
 * CAST('2026-12-07T23:30:00.5+01:30' AS TIMESTAMP(3)) -> CAST('2026-12-07 22:00:00.5' AS ...)
 * }</pre>
 *
 * <p>Only a character literal cast to {@code TIMESTAMP} is read so, and only when it has the
 * {@code T}; any other text is cast as Calcite casts it (a text Calcite cannot read is 22018).
 */
final class IsoTimestampText extends RexShuttle {
  /** ISO 8601's date and time with a T, optional seconds and fraction, optional zone. */
  private static final Pattern ISO = Pattern.compile(
      "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|z|[+-]\\d{2}(:?\\d{2})?)?");
  /** The zone at the end of such a text. */
  private static final Pattern ZONE = Pattern.compile("(Z|[+-]\\d{2}(:?\\d{2})?)$");
  private static final DateTimeFormatter WRITE =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSSSSS", Locale.ROOT);

  private final RexBuilder rexBuilder;

  private IsoTimestampText(RexBuilder rexBuilder) {
    this.rexBuilder = rexBuilder;
  }

  /** {@code rel} with every such text in its expressions read. */
  static RelNode read(RelNode rel) {
    IsoTimestampText text = new IsoTimestampText(rel.getCluster().getRexBuilder());
    return rel.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(RelNode other) {
        return super.visit(other).accept(text);
      }
    });
  }

  @Override public RexNode visitCall(RexCall call) {
    RexCall visited = (RexCall) super.visitCall(call);
    if (visited.getKind() != SqlKind.CAST
        || visited.getType().getSqlTypeName() != SqlTypeName.TIMESTAMP
        || !(visited.getOperands().get(0) instanceof RexLiteral literal)
        || literal.getType().getSqlTypeName().getFamily() != SqlTypeFamily.CHARACTER) {
      return visited;
    }
    NlsString value = literal.getValueAs(NlsString.class);
    if (value == null || !ISO.matcher(value.getValue().trim()).matches()) {
      return visited;
    }
    String sql;
    try {
      sql = WRITE.format(utc(value.getValue().trim().toUpperCase(Locale.ROOT)));
    } catch (DateTimeException e) {
      // A form the pattern lets through but no calendar has (month 13, offset +25): Calcite
      // says so.
      return visited;
    }
    RexNode text = rexBuilder.makeCharLiteral(
        new NlsString(sql, value.getCharsetName(), value.getCollation()));
    return visited.clone(visited.getType(), List.of(text));
  }

  /** The text's time, at UTC if it names a zone. */
  private static LocalDateTime utc(String text) {
    Matcher zone = ZONE.matcher(text);
    if (!zone.find()) {
      return LocalDateTime.parse(text);
    }
    // ZoneOffset reads Z, +05, +0530 and +05:30.
    return LocalDateTime.parse(text.substring(0, zone.start()))
        .atOffset(ZoneOffset.of(zone.group()))
        .withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
  }
}
