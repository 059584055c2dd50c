package io.skippr.sinks.sql;

import io.skippr.core.naming.Names;
import io.skippr.core.record.SkipprId;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * The names a SQL sink gives to what it creates. All are deterministic: the same stream, column or
 * staging batch always gets the same name, so a replay finds what the first attempt made.
 *
 * <p>A name longer than the database allows (PostgreSQL: 63 bytes) keeps its first bytes, cut at a
 * character boundary, and ends in {@code _} plus 8 hex digits of a hash of the whole name: two long
 * names that share a prefix stay apart, and the database never truncates silently.
 */
public class SqlNames {
    /** The commit marker table, in the target schema. */
    public static final String MARKER_TABLE = "_skippr_commits";

    /** Columns Skippr adds to every target table. */
    public static final String ID = "_skippr_id";

    public static final String SYNCED_AT = "_skippr_synced_at";

    /**
     * Staging-only columns: the row deletes its key (its operation was DELETE); the row's order
     * within its batch.
     */
    public static final String DELETE_ROW = "_skippr_delete_row";

    /**
     * What {@link #DELETE_ROW} was called in staging written before version 3 of {@link
     * SqlCommittableSerializer}; now a source's column may have the name (change data capture rows
     * carry {@code _skippr_deleted}, which {@code append} and soft deletes keep in the target).
     */
    public static final String DELETE_ROW_BEFORE_V3 = "_skippr_deleted";

    public static final String SEQ = "_skippr_seq";

    /** Prefix of staging tables; stream tables never start with {@code _skippr_}. */
    public static final String STAGING_PREFIX = "_skippr_stage_";

    /** Prefix of the table a {@code replace} commit builds before swapping it in. */
    public static final String REPLACE_PREFIX = "_skippr_new_";

    private static final Set<String> OWN = Set.of(ID, SYNCED_AT, DELETE_ROW, SEQ);

    private final int maxBytes;
    private final boolean foldsToLowerCase;

    public SqlNames(int maxBytes) {
        this(maxBytes, false);
    }

    /**
     * @param foldsToLowerCase whether the database folds ASCII letters of quoted names to lower
     *     case (Redshift): column names are then given in lower case, as the catalog will show them
     */
    public SqlNames(int maxBytes, boolean foldsToLowerCase) {
        this.maxBytes = maxBytes;
        this.foldsToLowerCase = foldsToLowerCase;
    }

    /** The target table of a stream: lower snake_case ({@link Names#snake}), fitted. */
    public String table(String stream) {
        return fit(Names.snake(stream));
    }

    /**
     * The target column of a source column: its own name (quoted wherever it is used), fitted; a
     * source column named like one of Skippr's own gets the suffix {@code _source}.
     */
    public String column(String column) {
        String name = column.isEmpty() ? "_" : column;
        if (foldsToLowerCase) {
            name = asciiLowerCase(name);
        }
        name = columnCharacters(name);
        if (OWN.contains(name)) {
            name = name + "_source";
        }
        return fit(name);
    }

    /**
     * A column name with the characters the database refuses in names replaced; by default the name
     * as it is (every database so far takes any character in a quoted name).
     */
    protected String columnCharacters(String name) {
        return name;
    }

    private static String asciiLowerCase(String name) {
        StringBuilder out = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char ch = name.charAt(i);
            out.append(ch >= 'A' && ch <= 'Z' ? (char) (ch + ('a' - 'A')) : ch);
        }
        return out.toString();
    }

    /** A staging table's name: a hash of everything that identifies its batch. */
    public static String staging(
            String pipeline, String sink, long run, int subtask, long epoch, long seq) {
        String key =
                String.join(
                        "\u0000",
                        pipeline,
                        sink,
                        Long.toString(run),
                        Integer.toString(subtask),
                        Long.toString(epoch),
                        Long.toString(seq));
        return STAGING_PREFIX + SkipprId.of("staging", key).substring(0, 24);
    }

    /** The table a {@code replace} commit fills before it takes the target's name. */
    public static String replacement(String table) {
        return REPLACE_PREFIX + SkipprId.of("replace", table).substring(0, 24);
    }

    /** {@code name}, or its first bytes plus a hash when it is longer than the database allows. */
    public String fit(String name) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= maxBytes) {
            return name;
        }
        String hash = "_" + SkipprId.of("name", name).substring(0, 8);
        int budget = maxBytes - hash.length();
        StringBuilder kept = new StringBuilder();
        int used = 0;
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            int len = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (used + len > budget) {
                break;
            }
            kept.appendCodePoint(cp);
            used += len;
            i += Character.charCount(cp);
        }
        return kept + hash;
    }
}
