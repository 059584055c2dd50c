package io.skippr.config.catalog;

/** What a connector kind does in a pipeline. Deadletter sinks use the data-sink kinds. */
public enum Role {
    DATA_SOURCE("data source", "data-source", "DataSource"),
    DATA_SINK("data sink", "data-sink", "DataSink"),
    SCHEMA_SINK("schema sink", "schema-sink", "SchemaSink");

    private final String label;
    private final String command;
    private final String classPrefix;

    Role(String label, String command, String classPrefix) {
        this.label = label;
        this.command = command;
        this.classPrefix = classPrefix;
    }

    /** "data sink", for messages. */
    public String label() {
        return label;
    }

    /** The {@code skipprd connect} subcommand: "data-sink". */
    public String command() {
        return command;
    }

    /** The prefix of the Java builder classes: {@code DataSink} + {@code Postgres}. */
    public String classPrefix() {
        return classPrefix;
    }
}
