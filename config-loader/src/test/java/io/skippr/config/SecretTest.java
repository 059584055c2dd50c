package io.skippr.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A {@link Secret} travels in Flink's job graph as its reference: in the JVM that resolved it the
 * value comes back; anywhere else (simulated by a handle this JVM never issued, as a TaskManager of
 * a cluster sees it) it is resolved from that process's environment, or fails naming the variable
 * and the field, never the value.
 */
class SecretTest {
    private static final Pattern HANDLE =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    @Test
    void theSerializedFormHoldsTheReferenceAndTheFieldButNotTheValue() throws Exception {
        Secret secret =
                Secret.resolved(
                        "${WAREHOUSE_PASSWORD}",
                        "data_sinks.warehouse.Postgres.password",
                        "Pw-0123456789abcdef");
        byte[] bytes = serialize(secret);
        assertThat(new String(bytes, StandardCharsets.ISO_8859_1))
                .contains("${WAREHOUSE_PASSWORD}")
                .contains("data_sinks.warehouse.Postgres.password")
                .doesNotContain("Pw-0123456789abcdef");
        Secret back = deserialize(bytes);
        assertThat(back.reveal())
                .as("in the JVM that resolved it")
                .isEqualTo("Pw-0123456789abcdef");
        assertThat(back).isEqualTo(secret).hasToString("******");
        assertThat(back.variables()).containsExactly("WAREHOUSE_PASSWORD");
    }

    @Test
    void aSecretGivenInCodeTravelsAsAHandleOnly() throws Exception {
        byte[] bytes = serialize(new Secret("Pw-given-in-code-42"));
        assertThat(new String(bytes, StandardCharsets.ISO_8859_1))
                .doesNotContain("Pw-given-in-code-42");
        assertThat(deserialize(bytes).reveal()).isEqualTo("Pw-given-in-code-42");
    }

    @Test
    void elsewhereTheReferenceIsResolvedFromThatProcesssEnvironment() throws Exception {
        String path = System.getenv("PATH");
        assertThat(path).as("the test's own environment has PATH").isNotNull();
        Secret secret = Secret.resolved("${PATH}", "data_sinks.w.Postgres.password", "not-PATH");
        assertThat(elsewhere(secret).reveal()).isEqualTo(path);
        Secret template =
                Secret.resolved("x-${PATH}-y", "data_sinks.w.Postgres.password", "not-PATH");
        assertThat(elsewhere(template).reveal()).isEqualTo("x-" + path + "-y");
    }

    @Test
    void elsewhereAMissingVariableIsNamedWithTheFieldAndNeverTheValue() throws Exception {
        Secret secret =
                Secret.resolved(
                        "${SKIPPR_TEST_NEVER_SET_PW}",
                        "data_sources.app_db.Postgres.password",
                        "Pw-never-shown-77");
        assertThatThrownBy(() -> elsewhere(secret).reveal())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "environment variable SKIPPR_TEST_NEVER_SET_PW is not set in this process"
                                + " (a Flink TaskManager or JobManager);"
                                + " data_sources.app_db.Postgres.password needs it. The job graph"
                                + " carries only the variable's name: on a Flink cluster every"
                                + " TaskManager and the JobManager (a Postgres source plans its"
                                + " reads there) need it in their environment: export"
                                + " SKIPPR_TEST_NEVER_SET_PW before starting them (standalone), or"
                                + " use kubernetes.env.secretKeyRef (Kubernetes), or set"
                                + " containerized.taskmanager.env.SKIPPR_TEST_NEVER_SET_PW and"
                                + " containerized.master.env.SKIPPR_TEST_NEVER_SET_PW (YARN,"
                                + " Kubernetes; the web UI shows these settings' values)");
    }

    @Test
    void elsewhereALiteralSecretFailsSayingHowToWriteIt() throws Exception {
        Secret secret =
                Secret.resolved(
                        "Pw-literal-in-yaml-9",
                        "data_sinks.warehouse.Postgres.password",
                        "Pw-literal-in-yaml-9");
        assertThat(secret.variables()).isEmpty();
        byte[] bytes = serialize(secret);
        assertThat(new String(bytes, StandardCharsets.ISO_8859_1))
                .doesNotContain("Pw-literal-in-yaml-9");
        assertThatThrownBy(() -> elsewhere(secret).reveal())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "data_sinks.warehouse.Postgres.password is written as a literal value,"
                                + " and a literal secret never travels in the job graph, so this"
                                + " process (a Flink TaskManager or JobManager of a cluster)"
                                + " cannot know it; write it as ${VAR} in skippr.yml and give"
                                + " every TaskManager and the JobManager VAR in their"
                                + " environment");
    }

    /** {@code secret} as a process that did not resolve it deserializes it: an unknown handle. */
    private static Secret elsewhere(Secret secret) throws Exception {
        String text = new String(serialize(secret), StandardCharsets.ISO_8859_1);
        Matcher handle = HANDLE.matcher(text);
        assertThat(handle.find()).as("the serialized form holds a handle").isTrue();
        String swapped =
                text.substring(0, handle.start())
                        + UUID.randomUUID()
                        + text.substring(handle.end());
        return deserialize(swapped.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static byte[] serialize(Secret secret) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(secret);
        }
        return bytes.toByteArray();
    }

    private static Secret deserialize(byte[] bytes) throws Exception {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return (Secret) in.readObject();
        }
    }
}
