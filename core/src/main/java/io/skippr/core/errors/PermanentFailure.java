package io.skippr.core.errors;

import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * Marks, in a failure's chain of causes, an error that a restart cannot cure: a wrong password, a
 * privilege revoked, a database, schema or table dropped. Flink finds the annotation anywhere in
 * the chain and fails the job at once instead of restarting it (its restart strategy, with backoff,
 * is for the transient rest: connections reset, timeouts, lock conflicts). It sits between the
 * exception that explains the failure and the driver's own, so messages stay as they were.
 */
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public final class PermanentFailure extends Exception {
    private static final long serialVersionUID = 1L;

    private PermanentFailure(Throwable cause) {
        super(cause.getMessage(), cause);
    }

    /** {@code cause} as the cause to give an explaining exception: marked if {@code permanent}. */
    public static Throwable mark(Throwable cause, boolean permanent) {
        return permanent ? new PermanentFailure(cause) : cause;
    }
}
