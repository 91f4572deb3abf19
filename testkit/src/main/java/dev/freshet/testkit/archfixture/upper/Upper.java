package dev.freshet.testkit.archfixture.upper;

import dev.freshet.testkit.archfixture.lower.Lower;

/** Uses {@link Lower}, which uses it back: a package cycle, for {@code ArchitectureTest}s. */
public final class Upper {
  Lower lower;
}
