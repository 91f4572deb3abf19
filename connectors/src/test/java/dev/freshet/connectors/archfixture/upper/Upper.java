package dev.freshet.connectors.archfixture.upper;

import dev.freshet.connectors.archfixture.lower.Lower;

/** Uses {@link Lower}, which uses it back: a package cycle, for {@code ArchitectureTest}. */
public final class Upper {
  Lower lower;
}
