package dev.freshet.pgwire.protocol;

/** The codes that open PostgreSQL's untyped start-up messages, in place of a protocol version. */
final class StartupCodes {
  /** Protocol 3.0, the only one Freshet speaks: major 3 in the high 16 bits, minor 0. */
  static final int PROTOCOL_3_0 = 3 << 16;
  /** SSLRequest: 1234 in the high half, 5679 in the low. */
  static final int SSL_REQUEST = 80877103;
  /** GSSENCRequest: 1234, 5680. */
  static final int GSSENC_REQUEST = 80877104;
  /** CancelRequest: 1234, 5678. */
  static final int CANCEL_REQUEST = 80877102;

  private StartupCodes() {
  }
}
