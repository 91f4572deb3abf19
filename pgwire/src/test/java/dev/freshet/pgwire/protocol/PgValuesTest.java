package dev.freshet.pgwire.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.common.types.SqlType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Values in PostgreSQL 15's text and binary forms. */
class PgValuesTest {
  private static PgValues.Formats formats(int extraFloatDigits, ZoneId zone) {
    return new PgValues.Formats() {
      @Override public int extraFloatDigits() {
        return extraFloatDigits;
      }

      @Override public ZoneId zone() {
        return zone;
      }
    };
  }

  private static final PgValues.Formats SHORTEST = formats(1, ZoneOffset.UTC);

  @Test void shouldWriteFloatsAsPostgreSql15() {
    assertEquals("0.1", PgValues.float8(0.1, 1));
    assertEquals("0.30000000000000004", PgValues.float8(0.1 + 0.2, 3));
    assertEquals("0.3", PgValues.float8(0.1 + 0.2, 0));
    assertEquals("1e+15", PgValues.float8(1e15, 1));
    assertEquals("123456789012345", PgValues.float8(123456789012345.0, 1));
    assertEquals("1e-05", PgValues.float8(0.00001, 1));
    assertEquals("0.0001", PgValues.float8(0.0001, 1));
    assertEquals("-2.5", PgValues.float8(-2.5, 1));
    assertEquals("NaN", PgValues.float8(Double.NaN, 1));
    assertEquals("-Infinity", PgValues.float8(Double.NEGATIVE_INFINITY, 1));
    assertEquals("0", PgValues.float8(0.0, 1));
    assertEquals("1.234567e+06", PgValues.float4(1234567f, 1));
    assertEquals("0.1", PgValues.float4(0.1f, 1));
  }

  @Test void shouldWriteDatesAndTimesAsPostgreSql15() {
    long millis = LocalDateTime.of(2026, 12, 1, 10, 0, 1, 500_000_000)
        .toInstant(ZoneOffset.UTC).toEpochMilli();
    assertEquals("2026-12-01 10:00:01.5", PgValues.text(SqlType.TIMESTAMP, millis, SHORTEST));
    assertEquals("2026-12-01 10:00:00", PgValues.text(SqlType.TIMESTAMP, millis - 1500,
        SHORTEST));
    assertEquals("2026-12-01 11:00:01.5+01", PgValues.text(
        SqlType.TIMESTAMP_WITH_LOCAL_TIME_ZONE, millis, formats(1, ZoneId.of("Europe/Berlin"))));
    assertEquals("2026-12-01 10:00:01.5+00", PgValues.text(
        SqlType.TIMESTAMP_WITH_LOCAL_TIME_ZONE, millis, SHORTEST));
    assertEquals("2026-12-01", PgValues.text(SqlType.DATE,
        (int) LocalDate.of(2026, 12, 1).toEpochDay(), SHORTEST));
    assertEquals("10:00:01.25", PgValues.text(SqlType.TIME, 36_001_250, SHORTEST));
    assertEquals("1 year 2 mons", PgValues.text(SqlType.INTERVAL_YEAR_MONTH, 14, SHORTEST));
    assertEquals("1 day 02:00:00", PgValues.text(SqlType.INTERVAL_DAY_SECOND, 93_600_000L,
        SHORTEST));
    assertEquals("-00:00:01.5", PgValues.text(SqlType.INTERVAL_DAY_SECOND, -1_500L, SHORTEST));
  }

  @Test void shouldWriteOtherValuesAsPostgreSql15() {
    assertEquals("t", PgValues.text(SqlType.BOOLEAN, true, SHORTEST));
    assertEquals("f", PgValues.text(SqlType.BOOLEAN, false, SHORTEST));
    assertEquals("\\x00ff10", PgValues.text(SqlType.VARBINARY, new byte[] {0, -1, 16},
        SHORTEST));
    assertEquals("12.500", PgValues.text(SqlType.DECIMAL, new BigDecimal("12.500"), SHORTEST));
    assertEquals("100", PgValues.text(SqlType.DECIMAL, new BigDecimal("1E+2"), SHORTEST));
  }

  @Test void shouldRoundTripNumericsInBinary() throws Exception {
    for (String n : new String[] {"0", "1", "-1", "12.345", "10000", "0.0001", "123456789.98765",
        "-0.00012", "99999999999999999999.5", "1E+8", "0.000"}) {
      BigDecimal value = new BigDecimal(n);
      ByteBuf buf = Unpooled.buffer();
      PgValues.numeric(value, buf);
      BigDecimal back = PgValues.readNumeric(buf);
      assertEquals(0, value.compareTo(back), n + " came back as " + back);
      assertEquals(Math.max(value.scale(), 0), back.scale(), n);
    }
    // 12.345: two base-10000 digits 12 and 3450, weight 0, scale 3.
    ByteBuf buf = Unpooled.buffer();
    PgValues.numeric(new BigDecimal("12.345"), buf);
    assertEquals(2, buf.readShort());
    assertEquals(0, buf.readShort());
    assertEquals(0, buf.readShort());
    assertEquals(3, buf.readShort());
    assertEquals(12, buf.readShort());
    assertEquals(3450, buf.readShort());
  }

  @Test void shouldWriteTimestampsFromPostgreSqlsEpochInBinary() {
    ByteBuf buf = Unpooled.buffer();
    long millis = LocalDateTime.of(2000, 1, 1, 0, 0, 1).toInstant(ZoneOffset.UTC).toEpochMilli();
    PgValues.binary(SqlType.TIMESTAMP, millis, buf, SHORTEST);
    assertEquals(1_000_000L, buf.readLong());
    PgValues.binary(SqlType.DATE, (int) LocalDate.of(2000, 1, 3).toEpochDay(), buf, SHORTEST);
    assertEquals(2, buf.readInt());
    assertEquals(LocalDateTime.of(2000, 1, 1, 0, 0, 1), PgValues.readTimestamp(1_000_000L));
  }
}
