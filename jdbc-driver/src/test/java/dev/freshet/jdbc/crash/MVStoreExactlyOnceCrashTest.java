package dev.freshet.jdbc.crash;

import dev.freshet.testkit.CrashTest;

/** {@link ExactlyOnceCrashTest}'s kill loop with the MVStore state store. */
@CrashTest
class MVStoreExactlyOnceCrashTest extends ExactlyOnceCrashTest {
  @Override String provider() {
    return "mvstore";
  }
}
