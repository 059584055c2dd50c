package io.skippr.core.spi;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Locale;
import org.apache.flink.api.connector.sink2.Committer;

/**
 * A failure injected at a named moment of a run, for recovery tests: the conformance kit's
 * exactly-once checks and process-kill tests. Real runs use {@link #NONE}.
 *
 * <p>A fail point fires the {@code nth} time a component reaches its stage, by its {@link Action}:
 * it throws once (a marker file remembers that it fired, so the restart it causes runs through),
 * throws every time (the run fails for good), or halts the JVM on the spot, as {@code kill -9}
 * would: no shutdown hook, no cancel, no final checkpoint.
 *
 * <p>From the command line: {@code -Dskippr.failpoint=<stage>[:<nth>]}, which halts; stages are
 * {@code mid-batch}, {@code before-commit} and {@code after-commit}, for PostgreSQL's prepared path
 * {@code after-prepare}, {@code before-commit-prepared} and {@code after-commit-prepared}, and
 * {@code deadletter-before-commit} for the deadletter sink.
 *
 * @param stage where it fires; null for {@link #NONE}
 * @param nth fire the nth time a component reaches the stage (rows for mid-batch, commits else)
 * @param action what it does when it fires
 * @param marker the marker file of a {@link Action#THROW_ONCE} fail point; null otherwise
 */
public record FailPoint(Stage stage, long nth, Action action, String marker)
        implements Serializable {
    /** The system property the command line reads. */
    public static final String PROPERTY = "skippr.failpoint";

    /** No failure. */
    public static final FailPoint NONE = new FailPoint(null, 0, null, null);

    /** What a fail point does when it fires. */
    public enum Action {
        THROW_ONCE,
        THROW_ALWAYS,
        HALT
    }

    /** Where a fail point fires. */
    public enum Stage {
        /** In the middle of a batch: after the nth row passed the normaliser. */
        MID_BATCH,
        /** After pre-commit: the data is staged and its checkpoint taken, the commit not begun. */
        BEFORE_COMMIT,
        /** After the commit, before Flink learns it succeeded (the notification is cut short). */
        AFTER_COMMIT,
        /**
         * PostgreSQL's prepared path: after the nth writer of a bounded run ran {@code PREPARE
         * TRANSACTION} (its rows and its marker row are prepared, the run's commit not begun).
         */
        AFTER_PREPARE,
        /**
         * PostgreSQL's prepared path: the run's commit transaction (staged rows, the marker rows of
         * subtasks without a prepared transaction) is done, no {@code COMMIT PREPARED} ran yet.
         */
        BEFORE_COMMIT_PREPARED,
        /** PostgreSQL's prepared path: after the run's nth {@code COMMIT PREPARED}. */
        AFTER_COMMIT_PREPARED,
        /**
         * The deadletter sink's {@link #BEFORE_COMMIT}: its deadletters are staged, its commit (and
         * so the data sink's, which waits for it in a bounded run) not begun.
         */
        DEADLETTER_BEFORE_COMMIT;

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    public static FailPoint throwOnce(Stage stage, long nth, Path marker) {
        return new FailPoint(stage, nth, Action.THROW_ONCE, marker.toString());
    }

    public static FailPoint throwAlways(Stage stage, long nth) {
        return new FailPoint(stage, nth, Action.THROW_ALWAYS, null);
    }

    public static FailPoint halt(Stage stage, long nth) {
        return new FailPoint(stage, nth, Action.HALT, null);
    }

    /** The fail point a {@code -Dskippr.failpoint} value names: {@code before-commit[:nth]}. */
    public static FailPoint parse(String spec) {
        if (spec == null || spec.isBlank()) {
            return NONE;
        }
        String[] parts = spec.trim().split(":", 2);
        for (Stage stage : Stage.values()) {
            if (stage.label().equals(parts[0])) {
                try {
                    return halt(stage, parts.length == 2 ? Long.parseLong(parts[1]) : 1);
                } catch (NumberFormatException e) {
                    break;
                }
            }
        }
        throw new IllegalArgumentException(
                PROPERTY
                        + "="
                        + spec
                        + ": expected mid-batch, before-commit, after-commit, after-prepare,"
                        + " before-commit-prepared, after-commit-prepared or"
                        + " deadletter-before-commit, optionally followed by :<n>");
    }

    /** The fail point of this JVM's command line, or {@link #NONE}. */
    public static FailPoint fromSystemProperty() {
        return parse(System.getProperty(PROPERTY));
    }

    public boolean at(Stage at) {
        return stage == at;
    }

    /** The fail point of a pipeline's data sink: none if this one is the deadletter sink's. */
    public FailPoint forDataSink() {
        return stage == Stage.DEADLETTER_BEFORE_COMMIT ? NONE : this;
    }

    /** The fail point of a pipeline's deadletter sink: its own stage as the sink's, or none. */
    public FailPoint forDeadletterSink() {
        return stage == Stage.DEADLETTER_BEFORE_COMMIT
                ? new FailPoint(Stage.BEFORE_COMMIT, nth, action, marker)
                : NONE;
    }

    /** Counts how often one component reached the fail point's stage; one per component. */
    public Trigger trigger() {
        return new Trigger(this);
    }

    /** A committer that fires this fail point just before or just after its delegate commits. */
    public <C> Committer<C> around(Committer<C> committer) {
        if (stage != Stage.BEFORE_COMMIT && stage != Stage.AFTER_COMMIT) {
            return committer;
        }
        return new FailingCommitter<>(committer, trigger());
    }

    /** One component's count of arrivals at its stage. */
    public static final class Trigger {
        private final FailPoint point;
        private long seen;

        private Trigger(FailPoint point) {
            this.point = point;
        }

        /** Fires the fail point if this is its stage and its nth arrival. */
        public void reached(Stage at) throws IOException {
            if (!point.at(at) || ++seen != point.nth) {
                return;
            }
            String what = "injected failure: " + at.label() + " #" + point.nth;
            switch (point.action) {
                case HALT -> {
                    System.err.println("skippr: " + what + ", halting the JVM");
                    System.err.flush();
                    Runtime.getRuntime().halt(137);
                }
                case THROW_ALWAYS -> throw new IOException(what);
                case THROW_ONCE -> {
                    Path marker = Path.of(point.marker);
                    if (!Files.exists(marker)) {
                        Files.createFile(marker);
                        throw new IOException(what);
                    }
                }
            }
        }
    }

    private static final class FailingCommitter<C> implements Committer<C> {
        private final Committer<C> delegate;
        private final Trigger trigger;

        FailingCommitter(Committer<C> delegate, Trigger trigger) {
            this.delegate = delegate;
            this.trigger = trigger;
        }

        @Override
        public void commit(Collection<CommitRequest<C>> requests)
                throws IOException, InterruptedException {
            if (requests.isEmpty()) {
                delegate.commit(requests);
                return;
            }
            trigger.reached(Stage.BEFORE_COMMIT);
            delegate.commit(requests);
            trigger.reached(Stage.AFTER_COMMIT);
        }

        @Override
        public void close() throws Exception {
            delegate.close();
        }
    }
}
