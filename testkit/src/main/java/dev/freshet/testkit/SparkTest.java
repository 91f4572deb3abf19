package dev.freshet.testkit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test of the Spark engine (engine-spark): most start a SparkSession, some a standalone cluster;
 * tagged {@code spark}.
 *
 * <p>Run only these tests with {@code mvn -B verify -Dgroups=spark}, or all others with
 * {@code -DexcludedGroups=spark}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("spark")
public @interface SparkTest {
}
