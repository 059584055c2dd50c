package io.skippr.sources.postgres.cdc;

/** WAL positions as PostgreSQL writes them: {@code 16/B374D848}. */
final class Lsn {
    private Lsn() {}

    static String show(long lsn) {
        return Long.toHexString(lsn >>> 32).toUpperCase()
                + "/"
                + Long.toHexString(lsn & 0xffffffffL).toUpperCase();
    }

    static long parse(String text) {
        int slash = text.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("not an LSN: " + text);
        }
        return (Long.parseLong(text.substring(0, slash), 16) << 32)
                | Long.parseLong(text.substring(slash + 1), 16);
    }
}
