package io.skippr.sinks.writer;

import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaVersions;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A sink writer's open units, one per stream. A stream's unit opens on its first row; a row of
 * another schema version (or one the writer's own rule rolls for: a size, a day) finishes it and
 * opens the next. At the checkpoint barrier (or the end of a bounded run) every open unit is
 * finished, and what all units finished since the last barrier became is handed back, in the order
 * they finished. The writer says only how to open a unit and what a finished unit becomes.
 *
 * @param <U> the writer's unit
 * @param <C> what a finished unit becomes: the committable that carries it to the committer
 */
public final class StreamUnits<U extends StreamUnit, C> {
    /** Opens a stream's unit for a schema version. */
    @FunctionalInterface
    public interface Opener<U> {
        U open(StreamSchema schema) throws IOException;
    }

    /** Finishes a unit into its committable. */
    @FunctionalInterface
    public interface Finisher<U, C> {
        C finish(U unit) throws IOException;
    }

    /** Closes a unit that will never be committed. */
    @FunctionalInterface
    public interface Closer<U> {
        void close(U unit) throws IOException;
    }

    private final SchemaVersions schemas;
    private final Finisher<U, C> finisher;
    private final Map<String, U> open = new LinkedHashMap<>();
    private final List<C> finished = new ArrayList<>();

    /**
     * @param schemas the schema versions the writer has been sent, for the schema of a unit's rows
     * @param finisher finishes a unit into its committable
     */
    public StreamUnits(SchemaVersions schemas, Finisher<U, C> finisher) {
        this.schemas = schemas;
        this.finisher = finisher;
    }

    /** The unit {@code row} goes into: its stream's, unless that holds another schema version. */
    public U of(Row row, Opener<U> opener) throws IOException {
        return of(row, unit -> false, opener);
    }

    /**
     * The unit {@code row} goes into: its stream's, unless that holds another schema version or
     * {@code rolls} says it is done; then that one is finished and a new one opened.
     */
    public U of(Row row, Predicate<? super U> rolls, Opener<U> opener) throws IOException {
        U unit = open.get(row.stream());
        if (unit == null || unit.version() != row.schemaVersion() || rolls.test(unit)) {
            if (unit != null) {
                finished.add(finisher.finish(unit));
            }
            unit = opener.open(schemas.of(row));
            open.put(row.stream(), unit);
        }
        return unit;
    }

    /** Finishes {@code stream}'s open unit now (it is full); its next row opens another. */
    public void finish(String stream) throws IOException {
        finished.add(finisher.finish(open.get(stream)));
        open.remove(stream);
    }

    /**
     * Finishes every open unit and hands back what all units finished since the last call became,
     * in the order they finished; none is open afterwards. Called at the checkpoint barrier.
     */
    public List<C> finishAll() throws IOException {
        for (U unit : open.values()) {
            finished.add(finisher.finish(unit));
        }
        open.clear();
        List<C> out = new ArrayList<>(finished);
        finished.clear();
        return out;
    }

    /** Closes every open unit without finishing it: the writer closes, and none is committed. */
    public void abandon(Closer<U> closer) throws IOException {
        for (U unit : open.values()) {
            closer.close(unit);
        }
        open.clear();
    }
}
