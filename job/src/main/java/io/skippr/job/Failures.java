package io.skippr.job;

import io.skippr.config.ConfigException;
import org.apache.flink.util.SerializedThrowable;

/**
 * What actually went wrong in a failure: a failed Flink job wraps its cause in layers of "Job
 * execution failed". The first of Skippr's own exceptions in the chain says it best (it names the
 * server, file or table); without one, the innermost cause.
 */
public final class Failures {
    private Failures() {}

    public static Throwable rootCause(Throwable e) {
        Throwable cause = e;
        while (true) {
            if (cause instanceof ConfigException || isSkippr(cause)) {
                return cause;
            }
            if (cause.getCause() == null || cause.getCause() == cause) {
                return cause;
            }
            cause = cause.getCause();
        }
    }

    /** The root cause in one line: its type and message. */
    public static String describe(Throwable e) {
        Throwable cause = rootCause(e);
        String message = cause.getMessage() == null ? "" : cause.getMessage();
        if (cause instanceof NotYetAvailableException) {
            return message;
        }
        String type = typeName(cause);
        if (message.startsWith(type + ": ")) {
            message = message.substring(type.length() + 2); // a SerializedThrowable's own words
        }
        return type.substring(type.lastIndexOf('.') + 1) + ": " + message;
    }

    private static boolean isSkippr(Throwable t) {
        return typeName(t).startsWith("io.skippr.");
    }

    private static String typeName(Throwable t) {
        return t instanceof SerializedThrowable serialized
                ? serialized.getOriginalErrorClassName()
                : t.getClass().getName();
    }
}
