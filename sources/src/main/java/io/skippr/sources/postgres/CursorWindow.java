package io.skippr.sources.postgres;

/**
 * The cursor values a split reads: {@code after < cursor <= upTo}, as PostgreSQL text of the cursor
 * column's type.
 *
 * @param after exclusive lower bound; null for no lower bound
 * @param upTo inclusive upper bound; null when no row had a cursor value when it was read
 * @param includeNull true to also read rows whose cursor is NULL (a first run reads them once)
 */
public record CursorWindow(String after, String upTo, boolean includeNull) {

    /** True when the window can hold no row, so no split is needed. */
    boolean isEmpty() {
        return upTo == null && !includeNull;
    }
}
