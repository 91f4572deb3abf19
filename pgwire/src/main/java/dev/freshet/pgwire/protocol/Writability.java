package dev.freshet.pgwire.protocol;

import io.netty.channel.Channel;

/**
 * Makes the thread that writes a connection's results wait while the client reads slower than
 * the server writes (the channel's buffer is above Netty's high-water mark), so that a large
 * result is never held whole in memory; the event loop signals when the buffer drained.
 */
final class Writability {
  /** How long one wait lasts before the channel is looked at again. */
  private static final long WAIT_MS = 1000;

  /** Waits until {@code channel} takes more writes or is closed. */
  synchronized void await(Channel channel) {
    while (channel.isActive() && !channel.isWritable()) {
      try {
        wait(WAIT_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** The channel's writability changed, or it closed. */
  synchronized void signal() {
    notifyAll();
  }
}
