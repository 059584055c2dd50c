package io.skippr.conformance;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import io.skippr.config.catalog.Guarantee;
import io.skippr.core.record.DataType;
import io.skippr.sinks.synapse.fake.FakeSynapse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The Synapse sink against the fake Synapse ({@code FakeSynapse}: the official driver's TDS in
 * front of a PostgreSQL database of its own, COPY INTO reading Parquet from the test Azurite), in a
 * schema of its own, staging in an Azurite container of its own. Rows are read from the fake's
 * backing tables, names over 63 bytes mapped back from the fake's stand-ins.
 */
final class SynapseFixture implements SinkFixture {
    private final FakeSynapse fake;
    private final String schema =
            "skippr_kit_syn_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 24);
    private final String container =
            "skippr-kit-syn-" + UUID.randomUUID().toString().substring(0, 8);

    SynapseFixture() throws Exception {
        fake = FakeSynapse.start();
        blobs().create();
    }

    private BlobContainerClient blobs() {
        return new BlobServiceClientBuilder()
                .endpoint(SourceTable.env("SKIPPR_TEST_AZURE_ENDPOINT"))
                .credential(
                        new StorageSharedKeyCredential(
                                SourceTable.env("SKIPPR_TEST_AZURE_ACCOUNT"),
                                SourceTable.env("SKIPPR_TEST_AZURE_KEY")))
                .buildClient()
                .getBlobContainerClient(container);
    }

    @Override
    public String kind() {
        return "Synapse";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    Synapse:\n      host: 127.0.0.1\n      port: "
                + fake.port()
                + "\n      user: "
                + fake.user()
                + "\n      password: ${KIT_SYN_PW}\n      database: "
                + FakeSynapse.DATABASE
                + "\n      schema: "
                + schema
                + "\n      encrypt: false\n      storage_account: "
                + SourceTable.env("SKIPPR_TEST_AZURE_ACCOUNT")
                + "\n      storage_container: "
                + container
                + "\n      storage_account_key: ${KIT_SYN_KEY}\n      storage_endpoint: "
                + SourceTable.env("SKIPPR_TEST_AZURE_ENDPOINT")
                + "\n";
    }

    @Override
    public Map<String, String> env() {
        return Map.of(
                "KIT_SYN_PW", fake.password(),
                "KIT_SYN_KEY", SourceTable.env("SKIPPR_TEST_AZURE_KEY"));
    }

    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws SQLException {
        if (!fake.exists(schema, table(stream))) {
            return List.of();
        }
        try (Connection c = fake.backing();
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "SELECT * FROM \""
                                                + fake.backingName(schema)
                                                + "\".\""
                                                + fake.backingName(table(stream))
                                                        .replace("\"", "\"\"")
                                                + "\"")) {
            ResultSetMetaData meta = rs.getMetaData();
            List<Map<String, Object>> rows = new ArrayList<>();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.put(
                            fake.original(meta.getColumnLabel(i)),
                            value(rs, i, meta.getColumnTypeName(i)));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    private static Object value(ResultSet rs, int i, String type) throws SQLException {
        return switch (type) {
            case "time" -> rs.getObject(i, LocalTime.class);
            case "timestamp" -> rs.getObject(i, LocalDateTime.class);
            case "timestamptz" -> rs.getObject(i, OffsetDateTime.class);
            default -> rs.getObject(i);
        };
    }

    /** docs/connectors/synapse.md: NaN and infinities land as NULL (FLOAT holds neither). */
    @Override
    public String landed(DataType.Kind kind, String canonical) {
        boolean floating = kind == DataType.Kind.FLOAT32 || kind == DataType.Kind.FLOAT64;
        return floating && Set.of("NaN", "Infinity", "-Infinity").contains(canonical)
                ? null
                : canonical;
    }

    @Override
    public Set<String> writeModes() {
        return Set.of("append", "merge", "replace");
    }

    /** Synapse stores the years 1 to 9999; others are load deadletters. */
    @Override
    public boolean storesExtremeTimestamps() {
        return false;
    }

    @Override
    public boolean commitsARunAtOnce() {
        return true;
    }

    /** Synapse has no CHECK constraints nor enforced keys: no rule of a user's refuses a row. */
    @Override
    public String refuse(Path dir, String stream, Set<Long> ids) {
        return null;
    }

    @Override
    public void close() throws Exception {
        try {
            fake.close();
        } finally {
            blobs().deleteIfExists();
        }
    }
}
