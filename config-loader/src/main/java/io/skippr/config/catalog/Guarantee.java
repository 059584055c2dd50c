package io.skippr.config.catalog;

/** The delivery guarantee a data sink kind states, and proves in its tests. */
public enum Guarantee {
    EXACTLY_ONCE("exactly-once"),
    AT_LEAST_ONCE("at-least-once"),
    /** Replays can land twice, and the destination drops the copy with the same _skippr_id. */
    DEDUPLICATED("at-least-once, deduplicated by _skippr_id"),
    NOT_APPLICABLE("not applicable");

    private final String label;

    Guarantee(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
