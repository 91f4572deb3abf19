package dev.freshet.testkit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test that starts child JVMs and kills them (SIGKILL) to check what survives a crash; tagged
 * {@code crash}. These take the longest: tens of seconds each.
 *
 * <p>Run only these tests with {@code mvn -B verify -Dgroups=crash}, or all others with
 * {@code -DexcludedGroups=crash}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("crash")
public @interface CrashTest {
}
