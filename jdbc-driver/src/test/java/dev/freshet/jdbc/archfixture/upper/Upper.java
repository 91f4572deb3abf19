package dev.freshet.jdbc.archfixture.upper;

import dev.freshet.jdbc.archfixture.lower.Lower;

/** Uses {@link Lower}, which uses it back: a package cycle, for {@code ArchitectureTest}. */
public final class Upper {
  Lower lower;
}
