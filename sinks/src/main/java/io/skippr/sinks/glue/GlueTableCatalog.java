package io.skippr.sinks.glue;

import io.skippr.core.naming.Names;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.TableCatalog;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.AlreadyExistsException;
import software.amazon.awssdk.services.glue.model.BatchCreatePartitionResponse;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.ConcurrentModificationException;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.PartitionError;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * The Glue schema sink: keeps a Glue database's tables, columns and partitions in step with the
 * streams a file sink writes as Parquet under {@code s3://bucket/prefix/<table>/}. The writer calls
 * {@link #prepare} each time it opens a file, long before the file is published, so a table has
 * every column and partition its files need before any reader can see them.
 *
 * <p>What it does is idempotent, and safe while several writer subtasks (or processes) do the same:
 * the database and tables are created if missing (an {@code AlreadyExistsException} from a
 * concurrent creator means someone else did it), columns are added with {@code UpdateTable} at the
 * table's {@code VersionId} (a {@code ConcurrentModificationException} means the table changed
 * meanwhile: read it again and retry), and partitions are registered with {@code
 * BatchCreatePartition}, where an existing partition is fine. Only additive changes are applied: a
 * column that would change type fails with {@link GlueSchemaConflictException}.
 *
 * <p>Each instance remembers (per process, not in state) what it already applied, so Glue is called
 * once per table, schema version and partition, not once per file.
 */
public final class GlueTableCatalog implements TableCatalog {
    private static final long serialVersionUID = 1L;
    static final int MAX_ATTEMPTS = 25;

    private final GlueConnection connection;
    private final String database;
    private final String bucket;
    private final String prefix;
    private final List<String> partitionKeys;

    /** What this instance already applied; rebuilt after a restore. */
    private transient Applied applied;

    private static final class Applied {
        boolean database;
        final Map<String, List<Column>> columns = new HashMap<>();
        final Set<String> partitions = new HashSet<>();
    }

    /**
     * @param database the Glue database (created if missing)
     * @param bucket the S3 bucket the files are written to
     * @param prefix the key prefix inside the bucket, or "" (slashes around it do not matter)
     * @param partitionKeys the tables' partition keys, such as {@code [dt]}; empty for none
     */
    public GlueTableCatalog(
            GlueConnection connection,
            String database,
            String bucket,
            String prefix,
            List<String> partitionKeys) {
        this.connection = connection;
        this.database = database.toLowerCase(java.util.Locale.ROOT);
        this.bucket = bucket;
        this.prefix = FileStore.prefix(prefix);
        this.partitionKeys = List.copyOf(partitionKeys);
    }

    /** The table of a stream: its name in lower snake_case, as the file sinks name its folder. */
    public static String table(String stream) {
        return Names.snake(stream);
    }

    /** Where a table's files are: {@code s3://bucket/prefix/<table>/}. */
    public String location(String table) {
        return "s3://" + bucket + "/" + (prefix.isEmpty() ? "" : prefix + "/") + table + "/";
    }

    /**
     * Makes sure the stream's table exists with every column of {@code schema}, and that {@code
     * partition} (such as {@code dt=2026-11-29}; "" for an unpartitioned file) is registered.
     */
    @Override
    public void prepare(StreamSchema schema, String partition) throws IOException {
        Applied done = applied();
        String table = table(schema.stream());
        List<Column> wanted = GlueColumns.of(schema);
        List<String> values = values(partition);
        List<Column> known = done.columns.get(table);
        boolean tableReady =
                known != null
                        && GlueColumns.added(schema.stream(), name(table), known, wanted).isEmpty();
        boolean partitionReady =
                values.isEmpty() || done.partitions.contains(table + "/" + partition);
        if (tableReady && partitionReady) {
            return;
        }
        try (GlueClient glue = connection.open()) {
            if (!done.database) {
                ensureDatabase(glue);
                done.database = true;
            }
            Table current = ensureTable(glue, schema.stream(), table, wanted);
            done.columns.put(table, current.storageDescriptor().columns());
            if (!partitionReady) {
                registerPartition(glue, current, partition, values);
                done.partitions.add(table + "/" + partition);
            }
        }
    }

    private Applied applied() {
        if (applied == null) {
            applied = new Applied();
        }
        return applied;
    }

    private String name(String table) {
        return database + "." + table;
    }

    private void ensureDatabase(GlueClient glue) throws IOException {
        try {
            glue.getDatabase(b -> b.name(database));
            return;
        } catch (EntityNotFoundException missing) {
            // created below
        } catch (SdkException e) {
            throw failure("reading Glue database " + database, "glue:GetDatabase", e);
        }
        try {
            glue.createDatabase(
                    b ->
                            b.databaseInput(
                                    d -> d.name(database).description("Tables written by Skippr")));
        } catch (AlreadyExistsException createdMeanwhile) {
            // another writer created it
        } catch (SdkException e) {
            throw failure("creating Glue database " + database, "glue:CreateDatabase", e);
        }
    }

    /** The table, with every wanted column: created, or extended, until Glue agrees. */
    private Table ensureTable(GlueClient glue, String stream, String table, List<Column> wanted)
            throws IOException {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            Table current = getTable(glue, table);
            if (current == null) {
                try {
                    glue.createTable(
                            b ->
                                    b.databaseName(database)
                                            .tableInput(
                                                    GlueTables.newTable(
                                                            table,
                                                            location(table),
                                                            wanted,
                                                            partitionKeys)));
                } catch (AlreadyExistsException createdMeanwhile) {
                    // read it and reconcile
                } catch (SdkException e) {
                    throw failure("creating Glue table " + name(table), "glue:CreateTable", e);
                }
                continue;
            }
            check(stream, current);
            List<Column> added =
                    GlueColumns.added(
                            stream, name(table), current.storageDescriptor().columns(), wanted);
            if (added.isEmpty()) {
                return current;
            }
            try {
                glue.updateTable(
                        b ->
                                b.databaseName(database)
                                        .versionId(current.versionId())
                                        .tableInput(GlueTables.withColumns(current, added)));
            } catch (ConcurrentModificationException changedMeanwhile) {
                backOff(attempt);
            } catch (SdkException e) {
                throw failure(
                        "adding columns " + names(added) + " to Glue table " + name(table),
                        "glue:UpdateTable",
                        e);
            }
        }
        throw new IOException(
                "Glue table "
                        + name(table)
                        + " kept changing under concurrent updates; gave up after "
                        + MAX_ATTEMPTS
                        + " attempts");
    }

    private Table getTable(GlueClient glue, String table) throws IOException {
        try {
            return glue.getTable(b -> b.databaseName(database).name(table)).table();
        } catch (EntityNotFoundException missing) {
            return null;
        } catch (SdkException e) {
            throw failure("reading Glue table " + name(table), "glue:GetTable", e);
        }
    }

    /** Refuses a table that is not where, or not partitioned as, the sink writes. */
    private void check(String stream, Table table) {
        String location =
                table.storageDescriptor() == null ? null : table.storageDescriptor().location();
        String ours = location(table.name());
        if (location == null || !stripSlash(location).equals(stripSlash(ours))) {
            throw new GlueSchemaConflictException(
                    "Cannot write stream "
                            + stream
                            + " into Glue table "
                            + name(table.name())
                            + ": the table reads "
                            + location
                            + ", and the sink writes "
                            + ours
                            + ". Drop or rename that table, or give the sink another"
                            + " glue_database_name.");
        }
        List<String> keys = new ArrayList<>();
        table.partitionKeys().forEach(k -> keys.add(GlueColumns.name(k.name())));
        if (!keys.equals(partitionKeys)) {
            throw new GlueSchemaConflictException(
                    "Cannot write stream "
                            + stream
                            + " into Glue table "
                            + name(table.name())
                            + ": it is partitioned by "
                            + keys
                            + ", and the sink writes partitions "
                            + partitionKeys
                            + ". Drop that table so that Skippr creates it again.");
        }
    }

    private void registerPartition(
            GlueClient glue, Table table, String partition, List<String> values)
            throws IOException {
        String action =
                "registering partition " + partition + " of Glue table " + name(table.name());
        BatchCreatePartitionResponse response;
        try {
            response =
                    glue.batchCreatePartition(
                            b ->
                                    b.databaseName(database)
                                            .tableName(table.name())
                                            .partitionInputList(
                                                    GlueTables.partition(
                                                            table,
                                                            values,
                                                            location(table.name())
                                                                    + partition
                                                                    + "/")));
        } catch (SdkException e) {
            throw failure(action, "glue:BatchCreatePartition", e);
        }
        for (PartitionError error : response.errors()) {
            String code = error.errorDetail() == null ? null : error.errorDetail().errorCode();
            if (!"AlreadyExistsException".equals(code)) {
                throw new IOException(
                        action
                                + " failed: "
                                + code
                                + " ("
                                + (error.errorDetail() == null
                                        ? ""
                                        : error.errorDetail().errorMessage())
                                + ")");
            }
        }
    }

    /** {@code dt=2026-11-29} as {@code [2026-11-29]}, checked against the partition keys. */
    private List<String> values(String partition) throws IOException {
        List<String> values = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        if (partition != null && !partition.isEmpty()) {
            for (String part : partition.split("/")) {
                int eq = part.indexOf('=');
                keys.add(eq < 0 ? part : part.substring(0, eq));
                values.add(eq < 0 ? "" : part.substring(eq + 1));
            }
        }
        if (!keys.equals(partitionKeys)) {
            throw new IOException(
                    "partition '"
                            + partition
                            + "' does not match the Glue tables' partition keys "
                            + partitionKeys);
        }
        return values;
    }

    private IOException failure(String action, String permission, SdkException e) {
        return GlueErrors.failure(action, permission, connection.endpoint(), e);
    }

    private static void backOff(int attempt) throws IOException {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(10, 20L + 20L * attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while retrying a Glue update");
        }
    }

    private static String names(List<Column> columns) {
        List<String> names = new ArrayList<>();
        columns.forEach(c -> names.add(c.name()));
        return String.join(", ", names);
    }

    private static String stripSlash(String location) {
        return location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
    }

    @Override
    public String toString() {
        return "Glue database " + database + " (" + connection + ")";
    }
}
