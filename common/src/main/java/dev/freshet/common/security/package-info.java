/**
 * What every module needs to keep secrets out of what Freshet shows: which option keys hold
 * secrets ({@link dev.freshet.common.security.SensitiveOptions}) and a JDBC URL with its
 * passwords hidden ({@link dev.freshet.common.security.UrlRedaction}). The engine's statement
 * redaction and the connectors' messages both use them.
 */
package dev.freshet.common.security;
