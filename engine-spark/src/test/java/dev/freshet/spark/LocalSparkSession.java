package dev.freshet.spark;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import scala.Option;

/**
 * The JVM's local SparkSession ({@link SparkSessions#local()}: Freshet's settings, {@code local[2]})
 * as a JUnit 5 extension, shared by every test class of the JVM that extends with it: the first
 * class starts it (seconds of CPU), the next ones find it running, and it stops when the JVM's
 * tests end. Spark's views (the engine's {@code SparkViewRunner}) run in it as they would in a
 * server, which makes the same session. A class that needs the JVM's SparkContext for another
 * master or its own settings calls {@link #stop()} first; the next class starts a new one.
 *
 * <pre>{@code
 * @ExtendWith(LocalSparkSession.class)
 * class MyTest {
 *   @BeforeAll static void start() { spark = LocalSparkSession.get().newSession(); }
 * }
 * }</pre>
 *
 * <p>Test classes that change SQL settings or add listeners work in a
 * {@link SparkSession#newSession() new session} of it: the same SparkContext, settings and query
 * listeners of their own.
 */
public final class LocalSparkSession implements BeforeAllCallback {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(LocalSparkSession.class);

  @Override public void beforeAll(ExtensionContext context) {
    // Closed when the JVM's tests end (the root context closes); registered once.
    context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Stopper.class, key -> new Stopper(),
        Stopper.class);
    get();
  }

  /** The running session of this JVM, started with Freshet's settings if there is none. */
  public static synchronized SparkSession get() {
    Option<SparkSession> running = SparkSession.getDefaultSession();
    if (running.isDefined() && !running.get().sparkContext().isStopped()) {
      return running.get();
    }
    return SparkSessions.local();
  }

  /** Stops the JVM's session, if one runs: for a class that needs another master. */
  public static synchronized void stop() {
    SparkSession.getDefaultSession().foreach(spark -> {
      spark.stop();
      return null;
    });
  }

  /** Stops the session when the JVM's tests have ended. */
  private static final class Stopper implements ExtensionContext.Store.CloseableResource {
    @Override public void close() {
      stop();
    }
  }
}
