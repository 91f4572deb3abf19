package dev.freshet.testkit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test that drives a browser (the machine's Chromium, through Playwright); tagged
 * {@code browser}. It needs Chromium and Node.js installed ({@code ./run-tests} installs them).
 *
 * <p>Run only these tests with {@code mvn -B verify -Dgroups=browser}, or all others with
 * {@code -DexcludedGroups=browser}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("browser")
public @interface BrowserTest {
}
