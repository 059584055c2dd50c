package io.skippr.config;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The secret values this JVM resolved, under random handles. A {@link Secret} deserialized in the
 * same JVM (the embedded runner's MiniCluster deserializes every task from the job graph) finds its
 * value here, so a run resolved from a given environment map keeps working although the graph
 * carries only the handle. A handle means nothing in another process. One entry per distinct value:
 * the map grows only with the number of different secrets this JVM has seen.
 */
final class ProcessSecrets {
    private static final Map<String, String> HANDLES = new ConcurrentHashMap<>();
    private static final Map<String, String> VALUES = new ConcurrentHashMap<>();

    private ProcessSecrets() {}

    /** The handle of {@code value}, the same for every call with the same value. */
    static String remember(String value) {
        return HANDLES.computeIfAbsent(
                value,
                v -> {
                    String handle = UUID.randomUUID().toString();
                    VALUES.put(handle, v);
                    return handle;
                });
    }

    /** The value this JVM remembered under {@code handle}, or null. */
    static String recall(String handle) {
        return VALUES.get(handle);
    }
}
