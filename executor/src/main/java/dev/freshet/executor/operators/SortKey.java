package dev.freshet.executor.operators;

/**
 * One column of an ORDER BY.
 *
 * @param field the column
 * @param descending whether larger values come first
 * @param nullsFirst whether nulls come before every value
 */
public record SortKey(int field, boolean descending, boolean nullsFirst) {
}
