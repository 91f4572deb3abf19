package dev.freshet.connectors.archfixture.lower;

import dev.freshet.connectors.archfixture.upper.Upper;

/** Uses {@link Upper}, which uses it back: a package cycle, for {@code ArchitectureTest}. */
public final class Lower {
  Upper upper;
}
