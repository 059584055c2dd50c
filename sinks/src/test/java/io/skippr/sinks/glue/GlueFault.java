package io.skippr.sinks.glue;

/**
 * An error the fake Glue answers with, as AWS does: HTTP 400 and {@code {"__type": type, "Message":
 * message}}. The types are Glue's own ({@code EntityNotFoundException}, {@code
 * AlreadyExistsException}, {@code ConcurrentModificationException}, {@code InvalidInputException}
 * …), so the SDK raises its matching exception class.
 */
final class GlueFault extends RuntimeException {
    private final String type;

    GlueFault(String type, String message) {
        super(message);
        this.type = type;
    }

    String type() {
        return type;
    }

    static GlueFault notFound(String message) {
        return new GlueFault("EntityNotFoundException", message);
    }

    static GlueFault alreadyExists(String message) {
        return new GlueFault("AlreadyExistsException", message);
    }

    static GlueFault invalid(String message) {
        return new GlueFault("InvalidInputException", message);
    }
}
