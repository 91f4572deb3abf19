package dev.freshet.connectors.nexmark;

/**
 * The random numbers of one Nexmark event: a SplitMix64 sequence whose start is a function of the
 * generator's seed, the event's number and a stream number, so that an event's values never
 * depend on which events were generated before it, on which thread, or in what slices.
 *
 * <pre>{@code
 * NexmarkRandom r = new NexmarkRandom();
 * r.reset(seed, eventNumber, 0);   // the event's numeric fields
 * int hot = r.nextInt(4);
 * r.reset(seed, eventNumber, 1);   // an independent sequence for one of its strings
 * }</pre>
 *
 * <p>Mutable and reused by one thread for every event it generates, so that an event costs no
 * allocation; not thread-safe.
 */
final class NexmarkRandom {
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private long state;

  /** Starts the sequence of event {@code eventNumber}'s stream {@code stream}. */
  void reset(long seed, long eventNumber, int stream) {
    state = mix(seed ^ mix(eventNumber * GOLDEN + stream));
  }

  long nextLong() {
    state += GOLDEN;
    return mix(state);
  }

  /** A value from 0 to {@code bound - 1}; {@code bound} is positive. */
  int nextInt(int bound) {
    return (int) (((nextLong() >>> 32) * bound) >>> 32);
  }

  /** A value from 0 to {@code bound - 1}; {@code bound} is positive. */
  long nextLong(long bound) {
    return (nextLong() >>> 1) % bound;
  }

  /** A value in {@code [0, 1)}. */
  double nextDouble() {
    return (nextLong() >>> 11) * 0x1.0p-53;
  }

  /** SplitMix64's finalizer: every input bit affects every output bit. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
