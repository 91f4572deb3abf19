package dev.freshet.executor.checkpoint;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The CRC32C of a checkpoint file's content, kept as the file's last line, so that a flipped byte
 * that leaves valid JSON (a digit of an offset, a letter of an id) is found when the file is read
 * instead of being taken as the truth.
 *
 * <pre>{@code
 * byte[] file = FileChecksum.seal("v1\n{\"nextBatchWatermarkMs\":0}".getBytes(UTF_8));
 * // v1
 * // {"nextBatchWatermarkMs":0}
 * // crc32c 1a2b3c4d
 * byte[] content = FileChecksum.open(file, path);   // the content again, or XX001 naming path
 * }</pre>
 *
 * <p>The line is {@code crc32c} and eight lowercase hex digits, after a newline that ends the
 * content and before a final newline; the checksum covers the content's bytes (without that
 * newline). It frames the content whatever the content is: a reader takes the line off before it
 * parses the rest, so fields can be added to the JSON without touching it. A file without the line
 * was written by a Freshet before checksums and is read as it is (it has no checksum to check).
 */
public final class FileChecksum {
  private static final byte[] PREFIX = "\ncrc32c ".getBytes(StandardCharsets.US_ASCII);
  /** The newline, {@code crc32c }, eight hex digits and the final newline. */
  private static final int TRAILER_LENGTH = PREFIX.length + 8 + 1;

  private FileChecksum() {
  }

  /** {@code content} followed by its checksum line: the bytes to write. */
  public static byte[] seal(byte[] content) {
    String line = String.format("%08x", checksum(content, content.length)) + "\n";
    byte[] sealed = Arrays.copyOf(content, content.length + TRAILER_LENGTH);
    System.arraycopy(PREFIX, 0, sealed, content.length, PREFIX.length);
    byte[] hex = line.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(hex, 0, sealed, content.length + PREFIX.length, hex.length);
    return sealed;
  }

  /**
   * The content of {@code bytes}, read from {@code file}, once its checksum line matches it; all
   * of {@code bytes} if the file has no checksum line (written before Freshet kept them).
   *
   * @throws CheckpointException {@link CheckpointException.Reason#CORRUPT} naming {@code file} if
   *     the checksum does not match the content
   */
  public static byte[] open(byte[] bytes, Path file) {
    int contentLength = bytes.length - TRAILER_LENGTH;
    if (contentLength < 0 || bytes[bytes.length - 1] != '\n'
        || !Arrays.equals(bytes, contentLength, contentLength + PREFIX.length, PREFIX, 0,
            PREFIX.length)) {
      return bytes;
    }
    String hex = new String(bytes, contentLength + PREFIX.length, 8, StandardCharsets.US_ASCII);
    long recorded;
    try {
      recorded = Long.parseLong(hex, 16);
    } catch (NumberFormatException e) {
      throw CheckpointException.corrupt(file, "its checksum line 'crc32c " + hex
          + "' is not eight hex digits");
    }
    long actual = checksum(bytes, contentLength);
    if (recorded != actual) {
      throw CheckpointException.corrupt(file, String.format("its content does not match its"
          + " CRC32C checksum (recorded %08x, computed %08x): a byte changed on disk", recorded,
          actual));
    }
    return Arrays.copyOf(bytes, contentLength);
  }

  private static long checksum(byte[] bytes, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, length);
    return crc.getValue();
  }
}
