package io.skippr.conformance;

import io.skippr.core.naming.Names;
import io.skippr.core.record.DataType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a destination tells the conformance kit: how to configure it and how to read back what it
 * holds. One small implementation per destination; its guarantee is the one its kind states in the
 * catalog.
 */
public interface SinkFixture {
    /** The data sink kind, as written in skippr.yml: {@code Postgres}. */
    String kind();

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

    /** The name a stream's table (or folder) lands under, as the destination's docs say. */
    default String table(String stream) {
        return Names.snake(stream);
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
