package io.skippr.config;

import io.skippr.config.model.EnvRefs;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A credential. It prints as asterisks; only {@link #reveal()} gives the value.
 *
 * <p>It travels inside Flink's job graph (connection records hold it), so its serialized form
 * carries what it was written as, never the value: the {@code ${VAR}} reference of {@code
 * skippr.yml}, the path of the field that holds it (for messages) and a handle into {@link
 * ProcessSecrets}. Where the graph is deserialized in the process that resolved it (skipprd's
 * embedded Flink, a MiniCluster), the handle finds the value resolved there, from whatever
 * environment that process was given. Anywhere else (a TaskManager or JobManager of a cluster),
 * {@link #reveal()} resolves the reference from that process's own environment when a connection is
 * first opened; a value written literally cannot be resolved there and fails with a message that
 * says how to write it.
 */
public final class Secret implements Serializable {
    private static final long serialVersionUID = 2L;

    /** The text as written, with its {@code ${VAR}} references; null for a literal value. */
    private final String reference;

    /** Where the secret is written, such as {@code data_sources.app_db.Postgres.password}. */
    private final String field;

    /** This value's key in the resolving process's {@link ProcessSecrets}. */
    private final String handle;

    private transient volatile String value;

    /**
     * A secret given in code (tests, code that builds connection records): it resolves only in this
     * process.
     */
    public Secret(String value) {
        this(null, "a secret given in code", value);
    }

    private Secret(String reference, String field, String value) {
        this.reference = reference;
        this.field = Objects.requireNonNull(field);
        this.value = Objects.requireNonNull(value);
        this.handle = ProcessSecrets.remember(value);
    }

    /**
     * A secret field resolved when a run starts.
     *
     * @param written the text of {@code skippr.yml}, such as {@code ${PG_PASSWORD}}
     * @param field where it is written, for messages: {@code
     *     data_sinks.warehouse.Postgres.password}
     * @param value what {@code written} resolved to in this process
     */
    public static Secret resolved(String written, String field, String value) {
        return new Secret(EnvRefs.contains(written) ? written : null, field, value);
    }

    /**
     * The value, for handing to a client library where a connection is opened; never log it or
     * write it anywhere.
     *
     * @throws IllegalStateException naming the variables and the field (never a value) when this
     *     process cannot resolve the secret
     */
    public String reveal() {
        String known = value;
        if (known == null) {
            known = ProcessSecrets.recall(handle);
            if (known == null) {
                known = fromEnvironment();
            }
            value = known;
        }
        return known;
    }

    /** The environment variables the value comes from; empty for a literal value. */
    public List<String> variables() {
        return reference == null ? List.of() : EnvRefs.names(reference);
    }

    private String fromEnvironment() {
        if (reference == null) {
            throw new IllegalStateException(
                    field
                            + " is written as a literal value, and a literal secret never travels"
                            + " in the job graph, so this process (a Flink TaskManager or"
                            + " JobManager of a cluster) cannot know it; write it as ${VAR} in"
                            + " skippr.yml and give every TaskManager and the JobManager VAR in"
                            + " their environment");
        }
        List<String> missing = new ArrayList<>();
        for (String name : variables()) {
            if (System.getenv(name) == null) {
                missing.add(name);
            }
        }
        if (!missing.isEmpty()) {
            String names = String.join(", ", missing);
            throw new IllegalStateException(
                    "environment variable "
                            + names
                            + (missing.size() == 1 ? " is" : " are")
                            + " not set in this process (a Flink TaskManager or JobManager);"
                            + " "
                            + field
                            + " needs it. The job graph carries only the variable's name: on a"
                            + " Flink cluster every TaskManager and the JobManager (a Postgres"
                            + " source plans its reads there) need it in their environment:"
                            + " export "
                            + missing.get(0)
                            + " before starting them (standalone), or use"
                            + " kubernetes.env.secretKeyRef (Kubernetes), or set"
                            + " containerized.taskmanager.env."
                            + missing.get(0)
                            + " and containerized.master.env."
                            + missing.get(0)
                            + " (YARN, Kubernetes; the web UI shows these settings' values)");
        }
        return EnvRefs.substitute(reference, System::getenv);
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        if (field == null || handle == null) {
            throw new java.io.InvalidObjectException("a Secret without its field or handle");
        }
    }

    @Override
    public String toString() {
        return "******";
    }

    /** Equal when written the same way and resolved to the same value in the creating process. */
    @Override
    public boolean equals(Object other) {
        return other instanceof Secret s
                && Objects.equals(s.reference, reference)
                && s.handle.equals(handle);
    }

    @Override
    public int hashCode() {
        return Objects.hash(reference, handle);
    }
}
