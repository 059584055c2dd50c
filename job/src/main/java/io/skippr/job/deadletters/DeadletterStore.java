package io.skippr.job.deadletters;

import java.io.IOException;
import java.util.List;

/** A deadletter sink read back: the deadletters it keeps for one pipeline. */
public interface DeadletterStore {
    /** Every deadletter of {@code pipeline} the sink holds, in no particular order. */
    List<StoredDeadletter> read(String pipeline) throws IOException;

    /** Where the deadletters are, for messages: {@code "public"."skippr_deadletters" of ...}. */
    String describe();
}
