package dev.freshet.executor.archfixture.upper;

import dev.freshet.executor.archfixture.lower.Lower;

/** Uses {@link Lower}, which uses it back: a package cycle, for {@code ArchitectureTest}. */
public final class Upper {
  Lower lower;
}
