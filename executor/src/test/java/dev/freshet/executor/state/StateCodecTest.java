package dev.freshet.executor.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * The self-describing encoding's bytes, written out by hand from its documented format: state
 * files and stream logs already written hold them, so a changed byte fails here.
 */
class StateCodecTest {
  @Test void shouldWriteEachValueAsItsTagThenItsBody() throws IOException {
    assertBytes(new byte[] {0}, null);
    assertBytes(new byte[] {1}, false);
    assertBytes(new byte[] {2}, true);
    assertBytes(new byte[] {3, -2}, (byte) -2);
    assertBytes(new byte[] {4, 1, 0}, (short) 256);
    assertBytes(new byte[] {5, 0, 0, 1, 0}, 256);
    assertBytes(new byte[] {6, 0, 0, 0, 0, 0, 0, 1, 0}, 256L);
    assertBytes(new byte[] {7, 63, -64, 0, 0}, 1.5f);
    assertBytes(new byte[] {8, 63, -8, 0, 0, 0, 0, 0, 0}, 1.5);
    assertBytes(new byte[] {9, 0, 2, 'h', 'i'}, "hi");
    assertBytes(new byte[] {11, 0, 0, 0, 1, 0, 0, 0, 1, 25}, new BigDecimal("2.5"));
    assertBytes(new byte[] {14, 0, 0, 0, 2, 6, 0, 0, 0, 0, 0, 0, 0, 7, 0}, new Object[] {7L, null});
  }

  @Test void shouldReadBackALongStringInChunks() throws IOException {
    String s = "y".repeat(40_000);
    byte[] bytes = bytes(s);
    assertEquals(10, bytes[0]);
    assertEquals(3, bytes[4]);
    assertEquals(s, StateCodec.decode(bytes, 0, bytes.length));
  }

  private static void assertBytes(byte[] expected, Object value) throws IOException {
    byte[] actual = bytes(value);
    assertArrayEquals(expected, actual, String.valueOf(value));
    Object read = StateCodec.decode(actual, 0, actual.length);
    if (value instanceof Object[] row) {
      assertArrayEquals(row, (Object[]) read);
    } else {
      assertEquals(value, read);
    }
  }

  private static byte[] bytes(Object value) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    StateCodec.write(new DataOutputStream(bytes), value);
    return bytes.toByteArray();
  }
}
