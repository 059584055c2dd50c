package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import io.skippr.core.record.DataType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a destination tells the conformance kit: how to configure it and how to read back what it
 * holds. One small implementation per destination, which writes out the guarantee and the names its
 * page documents rather than asking the product.
 */
public interface SinkFixture {
    /** The data sink kind, as written in skippr.yml: {@code Postgres}. */
    String kind();

    /**
     * The guarantee the kit holds the destination to, written out in each fixture as its page
     * states it: not read from the product's catalog, so a catalog that loosens a kind's guarantee
     * fails the kit ({@code SinkConformanceKit.theCatalogStatesTheGuaranteeTheKitHoldsItTo})
     * instead of silently loosening its checks.
     */
    Guarantee guarantee();

    /** The kit's stream with quotes, a space and accents in its name. */
    String HOSTILE_STREAM = "Order \"Items\" ünï";

    /** The kit's 100-character stream name, longer than PostgreSQL's 63 bytes. */
    String LONG_STREAM = "s".repeat(40) + "_stream_" + "t".repeat(52);

    /** The kit's 100-character column name. */
    String LONG_COLUMN = "c".repeat(45) + "_column_" + "d".repeat(47);

    /**
     * The tables (or folders) the kit's hostile and long stream names land under in most
     * destinations, as docs/naming.md describes them (lower snake_case, accents dropped, no length
     * limit): written out here, not computed by the product's naming code, so a change to that code
     * fails the kit.
     */
    Map<String, String> SNAKE_TABLES =
            Map.of(
                    HOSTILE_STREAM,
                    "order_items_uni",
                    LONG_STREAM,
                    "ssssssssssssssssssssssssssssssssssssssss_stream_"
                            + "tttttttttttttttttttttttttttttttttttttttttttttttttttt");

    /**
     * The body of a {@code data_sinks} entry, indented by four spaces, such as a Postgres block.
     */
    String sinkYaml(Path dir) throws Exception;

    /**
     * A top-level {@code schema_sinks:} section for a data sink whose entry links a schema sink
     * (Athena and its Glue schema sink); empty for the others.
     */
    default String schemaSinksYaml(Path dir) throws Exception {
        return "";
    }

    /** Environment variables the entry refers to. */
    default Map<String, String> env() {
        return Map.of();
    }

    /**
     * Every row the destination holds for {@code stream}, committed and visible to a reader, as
     * column name to value; includes {@code _skippr_id}. No rows only when the stream's table or
     * folder does not exist (or holds none); anything the reader cannot read (a truncated or
     * missing committed file, a garbage line, an unreadable table, Iceberg metadata pointing to a
     * missing file) throws.
     */
    List<Map<String, Object>> rows(Path dir, String stream) throws Exception;

    /**
     * How many rows the destination stores for {@code stream}, before its reader drops copies
     * (ClickHouse reads with {@code FINAL}); elsewhere the rows {@link #rows} reads.
     */
    default long storedCount(Path dir, String stream) throws Exception {
        return rows(dir, stream).size();
    }

    /**
     * The name a stream's table (or folder) lands under, as the destination's docs say: {@link
     * #SNAKE_TABLES} for the kit's hostile names; a name already in lower snake_case lands as it
     * is. Any other name must be written out first.
     */
    default String table(String stream) {
        return documented(SNAKE_TABLES, stream);
    }

    /** The written-out name of {@code stream}, or the stream itself when it needs no change. */
    static String documented(Map<String, String> tables, String stream) {
        String table = tables.get(stream);
        if (table != null) {
            return table;
        }
        if (!stream.matches("[a-z][a-z0-9_]*")) {
            throw new IllegalArgumentException(
                    "write down the table that stream '"
                            + stream
                            + "' lands under, as the destination's docs give it");
        }
        return stream;
    }

    /** The name a source column lands under, as the destination's docs say. */
    default String column(String column) {
        return column;
    }

    /** The write modes the destination supports; the others must be refused clearly. */
    default Set<String> writeModes() {
        return Set.of("append");
    }

    /**
     * Whether the default write mode merges a keyed stream (the SQL destinations); a lake table
     * merges only when write_mode says so.
     */
    default boolean mergesByDefault() {
        return writeModes().contains("merge");
    }

    /**
     * Whether the destination stores timestamps beyond the 64-bit microsecond range (PostgreSQL
     * allows up to year 294276); if not, such rows must become load-stage deadletters.
     */
    default boolean storesExtremeTimestamps() {
        return true;
    }

    /**
     * Whether one commit makes a whole bounded run visible at once (a SQL sink's global committer
     * commits the run in one transaction; an Iceberg sink commits it as one snapshot): then a run
     * killed right after its commit shows every row. Otherwise a run killed there may show all or
     * nothing.
     */
    default boolean commitsARunAtOnce() {
        return false;
    }

    /**
     * A value of the type matrix as it lands, in {@link Canonical} form, where the destination's
     * docs state a difference (ClickHouse keeps whole seconds); the same value elsewhere.
     */
    default String landed(DataType.Kind kind, String canonical) {
        return canonical;
    }

    /**
     * Starts capturing what runs in this JVM write, for a destination that is this process's output
     * (Stdout); closing stops it. Others have nothing to capture.
     */
    default AutoCloseable capture(Path dir) throws IOException {
        return () -> {};
    }

    /** Takes a finished {@code skipprd} process's standard output, for the same destinations. */
    default void collect(Path dir, Path processOutput) throws IOException {}

    /**
     * Gives the stream's target, which a run created, a rule of the user's that refuses the rows
     * whose {@code id} is one of {@code ids} (a CHECK constraint named {@code kit_refuses});
     * returns the words the destination's refusal of such a row contains, or null where a
     * destination has no rules of a user's by which it refuses rows (files, queues, Iceberg
     * tables).
     */
    default String refuse(Path dir, String stream, Set<Long> ids) throws Exception {
        return null;
    }

    /** Releases what the fixture created (schemas, tables). */
    default void close() throws Exception {}
}
