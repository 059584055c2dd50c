package io.skippr.core.spi;

import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * Asks the destination itself which rows of a batch it refuses (a CHECK constraint, a trigger, a
 * unique index, a length the user set: rules Skippr did not create and a {@link RowCheck} cannot
 * predict), so that those rows become deadletters of the {@code load} stage and the others load.
 * The probe changes nothing in the destination.
 */
public interface LoadProbe extends Serializable {
    /** A session of writer subtask {@code subtask}; one connection, closed with it. */
    Session open(int subtask) throws IOException;

    /** One subtask's probing. */
    interface Session extends AutoCloseable {
        /**
         * Whether rows of {@code schema}'s stream are probed now: its target has rules of the
         * user's. Rows of other streams go on as they come, never held back.
         */
        boolean probes(StreamSchema schema) throws IOException;

        /**
         * Per index into {@code rows}, the destination's own reason for refusing that row; empty
         * when it takes them all, or when it cannot tell now (then the commit is the judge).
         */
        Map<Integer, String> refused(StreamSchema schema, List<Row> rows) throws IOException;

        @Override
        void close() throws IOException;
    }
}
