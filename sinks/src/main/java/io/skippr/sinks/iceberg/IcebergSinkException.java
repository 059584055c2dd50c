package io.skippr.sinks.iceberg;

/** An Iceberg-family sink refused to go on, with a message saying what to change. */
public final class IcebergSinkException extends RuntimeException {
    public IcebergSinkException(String message) {
        super(message);
    }

    public IcebergSinkException(String message, Throwable cause) {
        super(message, cause);
    }
}
