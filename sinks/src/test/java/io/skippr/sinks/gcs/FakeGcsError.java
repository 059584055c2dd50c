package io.skippr.sinks.gcs;

/**
 * A refusal of {@link FakeGcsServer}, sent as the JSON API's error document: {@code {"error":
 * {"code": 404, "message": ..., "errors": [{"reason": "notFound", ...}]}}}.
 */
final class FakeGcsError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final int code;
    final String reason;

    FakeGcsError(int code, String reason, String message) {
        super(message);
        this.code = code;
        this.reason = reason;
    }

    /** A request the fake does not implement: said plainly, never answered wrongly. */
    static FakeGcsError unsupported(String what) {
        return new FakeGcsError(501, "notImplemented", "FakeGcsServer does not implement " + what);
    }
}
