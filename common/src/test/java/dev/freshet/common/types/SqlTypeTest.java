package dev.freshet.common.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every descriptor: its codec round trip, its text round trip, its JDBC code and its OID. */
class SqlTypeTest {
  /** A value of each type as a row holds it. */
  private static final Map<SqlType, Object> SAMPLES = new EnumMap<>(SqlType.class);
  /** Each type's JDBC code and PostgreSQL OID, written out rather than read from the enum. */
  private static final Map<SqlType, int[]> CODES = new EnumMap<>(SqlType.class);

  static {
    sample(SqlType.BOOLEAN, true, Types.BOOLEAN, 16);
    sample(SqlType.TINYINT, (byte) -7, Types.TINYINT, 21);
    sample(SqlType.SMALLINT, (short) 300, Types.SMALLINT, 21);
    sample(SqlType.INTEGER, -70_000, Types.INTEGER, 23);
    sample(SqlType.BIGINT, 1L << 40, Types.BIGINT, 20);
    sample(SqlType.REAL, 1.5f, Types.REAL, 700);
    sample(SqlType.DOUBLE, -2.25, Types.DOUBLE, 701);
    sample(SqlType.DECIMAL, new BigDecimal("-12345678901234567890.125"), Types.DECIMAL, 1700);
    sample(SqlType.CHAR, "ab ", Types.CHAR, 1042);
    sample(SqlType.VARCHAR, "héllo", Types.VARCHAR, 1043);
    sample(SqlType.BINARY, new byte[] {1, 2}, Types.BINARY, 17);
    sample(SqlType.VARBINARY, new byte[] {-1, 0, 3}, Types.VARBINARY, 17);
    sample(SqlType.DATE, 20_423, Types.DATE, 1082);
    sample(SqlType.TIME, 36_001_500, Types.TIME, 1083);
    sample(SqlType.TIMESTAMP, 1_796_119_200_123L, Types.TIMESTAMP, 1114);
    sample(SqlType.TIME_WITH_LOCAL_TIME_ZONE, 36_001_500, Types.TIME, 1266);
    sample(SqlType.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 1_796_119_200_123L, Types.TIMESTAMP, 1184);
    sample(SqlType.INTERVAL_YEAR_MONTH, 14, Types.OTHER, 1186);
    sample(SqlType.INTERVAL_DAY_SECOND, 90_061_001L, Types.OTHER, 1186);
  }

  private static void sample(SqlType type, Object value, int jdbc, int oid) {
    SAMPLES.put(type, value);
    CODES.put(type, new int[] {jdbc, oid});
  }

  @Test void shouldHaveASampleForEveryType() {
    assertEquals(SqlType.values().length, SAMPLES.size());
  }

  @Test void shouldReadBackWhatItsCodecWrote() throws IOException {
    for (SqlType type : SqlType.values()) {
      Object value = SAMPLES.get(type);
      Object read = roundTrip(type.codec(), value);
      assertEquals(type.javaClass(), read.getClass(), type.name());
      if (value instanceof byte[] bytes) {
        assertArrayEquals(bytes, (byte[]) read, type.name());
      } else {
        assertEquals(value, read, type.name());
      }
    }
  }

  @Test void shouldHaveItsJdbcCodeAndPostgresOid() {
    for (SqlType type : SqlType.values()) {
      assertEquals(CODES.get(type)[0], type.jdbcType(), type.name());
      assertEquals(CODES.get(type)[1], type.postgresOid(), type.name());
    }
  }

  @Test void shouldParseWhatItFormats() {
    for (SqlType type : SqlType.values()) {
      if (type.parsesText()) {
        Object value = SAMPLES.get(type);
        assertEquals(value, type.parse(type.format(value)), type.name());
      } else {
        assertThrows(IllegalArgumentException.class, () -> type.parse("1"), type.name());
      }
    }
  }

  @Test void shouldParseTextAsSourcesWriteIt() {
    assertEquals(1_796_119_200_000L, SqlType.TIMESTAMP.parse("2026-12-01 10:00:00.000"));
    assertEquals(1_796_119_200_000L, SqlType.TIMESTAMP.parse("2026-12-01T10:00:00Z"));
    assertEquals(1_796_115_600_000L, SqlType.TIMESTAMP.parse(" 2026-12-01T10:00:00+01:00 "));
    assertEquals(20_423, SqlType.DATE.parse("2025-12-01"));
    assertEquals(36_000_000, SqlType.TIME.parse("10:00"));
    assertEquals(Boolean.FALSE, SqlType.BOOLEAN.parse(" FALSE"));
    assertEquals(42L, SqlType.BIGINT.parse(" 42 "));
    assertEquals(" x ", SqlType.VARCHAR.parse(" x "));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SqlType.SMALLINT.parse("70000"));
    assertEquals("'70000' is not a whole number that fits SMALLINT", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> SqlType.BOOLEAN.parse("yes"));
    assertEquals("'yes' is not a BOOLEAN (true or false)", e.getMessage());
  }

  @Test void shouldFormatDatesAndTimesAsSinksWriteThem() {
    assertEquals("2026-12-01 10:00:00.123", SqlType.TIMESTAMP.format(1_796_119_200_123L));
    assertEquals("1970-01-01 00:00:00.000", SqlType.TIMESTAMP.format(0L));
    assertEquals("2025-12-01", SqlType.DATE.format(20_423));
    assertEquals("10:00", SqlType.TIME.format(36_000_000));
    assertTrue(SqlType.TIME.isDatetime());
    assertFalse(SqlType.BIGINT.isDatetime());
  }

  @Test void shouldGiveJdbcTheJavaTimeValues() {
    assertEquals(LocalDateTime.of(1970, 1, 1, 0, 0), SqlType.TIMESTAMP.toJdbc(0L));
    assertEquals(LocalDate.of(2025, 12, 1), SqlType.DATE.toJdbc(20_423));
    assertEquals(LocalTime.of(10, 0, 1, 500_000_000), SqlType.TIME.toJdbc(36_001_500));
    assertEquals(7L, SqlType.BIGINT.toJdbc(7L));
  }

  @Test void shouldTakeBackWhatItGaveJdbc() {
    for (SqlType type : SqlType.values()) {
      Object value = SAMPLES.get(type);
      assertEquals(value, type.fromJdbc(type.toJdbc(value)), type.name());
    }
    assertEquals(1_796_119_200_123L,
        SqlType.TIMESTAMP.fromJdbc(LocalDateTime.of(2026, 12, 1, 10, 0, 0, 123_456_789)));
    assertNull(SqlType.DATE.fromJdbc("2025-12-01"));
    assertNull(SqlType.INTEGER.fromJdbc(1L));
    assertNull(SqlType.VARCHAR.fromJdbc(null));
  }

  @Test void shouldGiveJdbcItsDisplaySize() {
    assertEquals(20, SqlType.BIGINT.displaySize(19));
    assertEquals(12, SqlType.DECIMAL.displaySize(10));
    assertEquals(3, SqlType.DECIMAL.displaySize(-1));
    assertEquals(255, SqlType.VARCHAR.displaySize(-1));
    assertEquals(8, SqlType.CHAR.displaySize(8));
    assertEquals(23, SqlType.TIMESTAMP.displaySize(3));
    assertEquals(0, SqlType.VARBINARY.displaySize(10));
  }

  @Test void shouldNameItsTypeAsACreateTableDeclaresIt() {
    assertEquals("BOOLEAN", SqlType.BOOLEAN.ddlName(-1, -1));
    assertEquals("SMALLINT", SqlType.TINYINT.ddlName(3, 0));
    assertEquals("SMALLINT", SqlType.SMALLINT.ddlName(5, 0));
    assertEquals("INTEGER", SqlType.INTEGER.ddlName(10, 0));
    assertEquals("BIGINT", SqlType.BIGINT.ddlName(19, 0));
    assertEquals("REAL", SqlType.REAL.ddlName(7, -1));
    assertEquals("DOUBLE PRECISION", SqlType.DOUBLE.ddlName(15, -1));
    assertEquals("DECIMAL(10, 2)", SqlType.DECIMAL.ddlName(10, 2));
    assertEquals("DATE", SqlType.DATE.ddlName(0, -1));
    assertEquals("TIME", SqlType.TIME.ddlName(3, -1));
    assertEquals("TIMESTAMP", SqlType.TIMESTAMP.ddlName(3, -1));
    assertEquals("VARCHAR(20)", SqlType.VARCHAR.ddlName(20, -1));
    assertEquals("VARCHAR(4096)", SqlType.VARCHAR.ddlName(-1, -1));
    assertEquals("VARCHAR(4096)", SqlType.VARCHAR.ddlName(65_536, -1));
    assertEquals("VARCHAR(65535)", SqlType.VARCHAR.ddlName(65_535, -1));
    assertEquals("VARCHAR(4096)", SqlType.INTERVAL_DAY_SECOND.ddlName(-1, -1));
  }

  @Test void shouldFindEveryTypeByItsNameAndCalcitesAliases() {
    for (SqlType type : SqlType.values()) {
      assertEquals(type, SqlType.forName(type.name().toLowerCase(java.util.Locale.ROOT)));
    }
    assertEquals(SqlType.DOUBLE, SqlType.forName("FLOAT"));
    assertEquals(SqlType.TIMESTAMP_WITH_LOCAL_TIME_ZONE, SqlType.forName("TIMESTAMP_LTZ"));
    assertEquals(SqlType.INTERVAL_YEAR_MONTH, SqlType.forName("INTERVAL_YEAR_MONTH"));
    assertEquals(SqlType.INTERVAL_DAY_SECOND, SqlType.forName("INTERVAL_HOUR_MINUTE"));
    assertNull(SqlType.forName("GEOMETRY"));
  }

  @Test void shouldWriteTheBytesEarlierReleasesWrote() throws IOException {
    // These bodies are in files already written: a changed byte would make them unreadable.
    assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 1, 0}, bytes(ValueCodec.LONG, 256L));
    assertArrayEquals(new byte[] {0, 0, 0, 1, 0, 0, 0, 1, 25},
        bytes(ValueCodec.DECIMAL, new BigDecimal("2.5")));
    assertArrayEquals(new byte[] {9, 0, 2, 'h', 'i'}, bytes(ValueCodec.STRING, "hi"));
    assertArrayEquals(new byte[] {0, 0, 0, 2, 7, 8}, bytes(ValueCodec.BYTES, new byte[] {7, 8}));
    assertArrayEquals(new byte[] {1}, bytes(ValueCodec.BOOLEAN, true));
  }

  @Test void shouldWriteALongStringInChunks() throws IOException {
    String s = "x".repeat(ValueCodec.CHUNK * 2 + 1);
    byte[] bytes = bytes(ValueCodec.STRING, s);
    assertEquals(ValueCodec.CHUNKED_STRING, bytes[0]);
    assertEquals(3, bytes[4]);
    assertEquals(s, roundTrip(ValueCodec.STRING, s));
  }

  @Test void shouldRejectACorruptString() {
    assertThrows(IOException.class, () -> ValueCodec.STRING.read(
        new DataInputStream(new ByteArrayInputStream(new byte[] {5, 0, 0}))));
  }

  private static byte[] bytes(ValueCodec codec, Object value) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    codec.write(new DataOutputStream(bytes), value);
    return bytes.toByteArray();
  }

  private static Object roundTrip(ValueCodec codec, Object value) throws IOException {
    return codec.read(new DataInputStream(new ByteArrayInputStream(bytes(codec, value))));
  }

  @Test void shouldNarrowWholeNumbersThatFitAndOnlyForWholeNumberTypes() {
    assertEquals(Byte.valueOf((byte) -128), SqlType.TINYINT.wholeNumber(-128));
    assertNull(SqlType.TINYINT.wholeNumber(128));
    assertEquals(Short.valueOf((short) 32_767), SqlType.SMALLINT.wholeNumber(32_767));
    assertNull(SqlType.SMALLINT.wholeNumber(-32_769));
    assertEquals(Integer.valueOf(-70_000), SqlType.INTEGER.wholeNumber(-70_000));
    assertNull(SqlType.INTEGER.wholeNumber(1L << 31));
    assertEquals(Long.valueOf(Long.MIN_VALUE), SqlType.BIGINT.wholeNumber(Long.MIN_VALUE));
    for (SqlType type : SqlType.values()) {
      boolean whole = type == SqlType.TINYINT || type == SqlType.SMALLINT
          || type == SqlType.INTEGER || type == SqlType.BIGINT;
      assertEquals(whole, type.isWholeNumber(), type.name());
      if (!whole) {
        assertNull(type.wholeNumber(1), type.name());
      }
    }
  }

  @Test void shouldReadJsonNumbersAndBooleansAsEachTypeHoldsThem() {
    assertEquals(Byte.valueOf((byte) 7), SqlType.TINYINT.fromNumber(new BigDecimal("7")));
    assertEquals(Short.valueOf((short) 7), SqlType.SMALLINT.fromLong(7));
    assertEquals(Integer.valueOf(7), SqlType.INTEGER.fromNumber(new BigDecimal("7.0")));
    assertEquals(Integer.valueOf(7), SqlType.INTEGER.fromLong(7));
    assertEquals(Long.valueOf(1L << 40), SqlType.BIGINT.fromLong(1L << 40));
    assertEquals(Long.valueOf(1_796_119_200_000L), SqlType.TIMESTAMP.fromLong(1_796_119_200_000L));
    assertEquals(Long.valueOf(5), SqlType.TIMESTAMP.fromNumber(new BigDecimal("5")));
    assertEquals(Float.valueOf(1.5f), SqlType.REAL.fromNumber(new BigDecimal("1.5")));
    assertEquals(Float.valueOf(3f), SqlType.REAL.fromLong(3));
    assertEquals(Double.valueOf(2.25), SqlType.DOUBLE.fromNumber(new BigDecimal("2.25")));
    assertEquals(Double.valueOf(3.0), SqlType.DOUBLE.fromLong(3));
    assertEquals(new BigDecimal("1.50"), SqlType.DECIMAL.fromNumber(new BigDecimal("1.50")));
    assertEquals(BigDecimal.valueOf(3), SqlType.DECIMAL.fromLong(3));
    assertEquals("1000", SqlType.VARCHAR.fromNumber(new BigDecimal("1E+3")));
    assertEquals("12", SqlType.VARCHAR.fromLong(12));
    assertEquals(Boolean.TRUE, SqlType.BOOLEAN.fromBoolean(true));
    assertEquals("false", SqlType.VARCHAR.fromBoolean(false));

    assertEquals("the number 128 is not a whole number that fits TINYINT",
        assertThrows(IllegalArgumentException.class, () -> SqlType.TINYINT.fromLong(128))
            .getMessage());
    assertEquals("the number 2147483648 is not a whole number that fits INTEGER",
        assertThrows(IllegalArgumentException.class, () -> SqlType.INTEGER.fromLong(1L << 31))
            .getMessage());
    assertEquals("the number 1.5 is not a whole number that fits BIGINT",
        assertThrows(IllegalArgumentException.class,
            () -> SqlType.BIGINT.fromNumber(new BigDecimal("1.5"))).getMessage());
    assertEquals("the number 3 is not a DATE such as 2026-12-01",
        assertThrows(IllegalArgumentException.class, () -> SqlType.DATE.fromLong(3))
            .getMessage());
    assertEquals("the number 1 is not a BOOLEAN (true or false)",
        assertThrows(IllegalArgumentException.class, () -> SqlType.BOOLEAN.fromLong(1))
            .getMessage());
    assertEquals("true is not a TIME such as 10:00:00",
        assertThrows(IllegalArgumentException.class, () -> SqlType.TIME.fromBoolean(true))
            .getMessage());
  }

  /**
   * Each type {@link SqlType#readJdbc} reads comes back from a real database (H2) as the row
   * holds it, its SQL NULL as null; the others are refused.
   */
  @Test void shouldReadEachJdbcTypeFromADatabaseAsTheRowHoldsIt() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:h2:mem:sqltype-read");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (k INT, b BOOLEAN, ti TINYINT, si SMALLINT, i INTEGER,"
          + " bi BIGINT, r REAL, d DOUBLE PRECISION, n DECIMAL(30, 3), ch CHARACTER(3),"
          + " vc CHARACTER VARYING, dt DATE, tm TIME(3), ts TIMESTAMP(3))");
      s.execute("INSERT INTO t VALUES (1, TRUE, -7, 300, -70000, " + (1L << 40) + ", 1.5, -2.25,"
          + " -12345678901234567890.125, 'ab', 'héllo', DATE '2025-12-01',"
          + " TIME '10:00:01.500', TIMESTAMP '2026-12-01 10:00:00.123')");
      s.execute("INSERT INTO t VALUES (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
          + " NULL, NULL, NULL, NULL)");
      SqlType[] types = {SqlType.BOOLEAN, SqlType.TINYINT, SqlType.SMALLINT, SqlType.INTEGER,
          SqlType.BIGINT, SqlType.REAL, SqlType.DOUBLE, SqlType.DECIMAL, SqlType.CHAR,
          SqlType.VARCHAR, SqlType.DATE, SqlType.TIME, SqlType.TIMESTAMP};
      try (ResultSet r = s.executeQuery("SELECT * FROM t ORDER BY k")) {
        assertTrue(r.next());
        for (int i = 0; i < types.length; i++) {
          assertTrue(types[i].readsJdbc(), types[i].name());
          assertEquals(SAMPLES.get(types[i]), types[i].readJdbc(r, i + 2), types[i].name());
        }
        assertTrue(r.next());
        for (int i = 0; i < types.length; i++) {
          assertNull(types[i].readJdbc(r, i + 2), types[i].name());
        }
        for (SqlType type : List.of(SqlType.BINARY, SqlType.VARBINARY,
            SqlType.TIME_WITH_LOCAL_TIME_ZONE, SqlType.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
            SqlType.INTERVAL_YEAR_MONTH, SqlType.INTERVAL_DAY_SECOND)) {
          assertFalse(type.readsJdbc(), type.name());
          assertThrows(IllegalArgumentException.class, () -> type.readJdbc(r, 2), type.name());
        }
      }
    }
  }
}
