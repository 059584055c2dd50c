package io.skippr.sinks.deadletters;

import io.skippr.sinks.files.FileFormat;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.iceberg.IcebergCatalogFactory;
import io.skippr.sinks.sql.SqlDatabase;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Where a deadletter sink keeps its deadletters, as its kind declares it ({@link
 * KeepsDeadletters}), for {@code skipprd deadletters} to read them back: the connection or store is
 * the one the sink itself writes through, built once by its factory.
 */
public sealed interface KeptDeadletters {
    /** The {@code skippr_deadletters} table in {@code schema} of a SQL database. */
    record SqlTable(SqlDatabase database, String schema) implements KeptDeadletters {}

    /** The committed files under {@code skippr_deadletters/} of a file store. */
    record Files(FileStore store, FileFormat format) implements KeptDeadletters {}

    /**
     * The {@code skippr_deadletters} Iceberg table in {@code namespace} of a catalog (SkipprLake,
     * AthenaIceberg's Glue).
     */
    record LakeTable(IcebergCatalogFactory catalog, String namespace) implements KeptDeadletters {}

    /** Rows the kind reads itself, every column as text ({@link TextRows#read}). */
    record Rows(TextRows reader) implements KeptDeadletters {}

    /** Nothing yet: the sink has not been written to (its database file does not exist). */
    record Nothing(String where) implements KeptDeadletters {}

    /**
     * Deadletters this kind does not keep where they can be read back.
     *
     * @param why the reason, after the entry's name: {@code "prints each deadletter as a line and
     *     keeps nothing, so there is nothing to read back"}
     */
    record NotReadBack(String why) implements KeptDeadletters {}

    /** A deadletter table read by its kind's own client. */
    interface TextRows {
        /**
         * Every deadletter of {@code pipeline}, a map per row from column name ({@code _skippr_id},
         * {@code stream}, {@code stage}, {@code error_class}, {@code error_message}, {@code
         * source_position}, {@code payload}, {@code data_run}) to its text or null, and {@code
         * failed_at} as microseconds since the epoch.
         */
        List<Map<String, String>> read(String pipeline) throws IOException;

        /** Where the rows are, for messages. */
        String describe();
    }
}
