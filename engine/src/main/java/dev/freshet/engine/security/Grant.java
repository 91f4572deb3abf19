package dev.freshet.engine.security;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One row of {@code SHOW GRANTS} and {@code sys.privileges}: who may do what with which object.
 *
 * @param object the object's name; null for {@code CREATE CONNECTOR}
 * @param grantee the user's name, or {@code PUBLIC}
 * @param privilege {@code SELECT}, {@code INSERT}, {@code OWNER} (the object's owner) or
 *     {@code CREATE CONNECTOR}
 * @param grantor who granted it; the owner itself for {@code OWNER}
 */
public record Grant(@Nullable String object, String grantee, String privilege, String grantor) {
  /** The grantee that stands for every user. */
  public static final String PUBLIC = "PUBLIC";
  /** The privilege shown for an object's owner. */
  public static final String OWNER = "OWNER";
  /** The privilege of creating objects with an external connector. */
  public static final String CREATE_CONNECTOR = "CREATE CONNECTOR";
}
