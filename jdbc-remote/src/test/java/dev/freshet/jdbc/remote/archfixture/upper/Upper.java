package dev.freshet.jdbc.remote.archfixture.upper;

import dev.freshet.jdbc.remote.archfixture.lower.Lower;

/** Uses {@link Lower}, which uses it back: a package cycle, for {@code ArchitectureTest}. */
public final class Upper {
  Lower lower;
}
