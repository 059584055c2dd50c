package io.skippr.sinks.athena;

import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.glue.GlueConnection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.Type;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * A store that holds the Athena sink to its promise: it refuses to stage a Parquet file unless Glue
 * already has the file's table, every column of the file and its {@code dt} partition, and refuses
 * to publish one unless they are still there; each file it let through gets a marker object under
 * {@code _glue-checked/}, so a test sees the checks ran. Glue is asked over HTTP (the fake server's
 * endpoint), so the check works in any task of the job.
 */
final class GlueCheckingStore implements FileStore {
    static final String MARKERS = "_glue-checked/";
    private static final Pattern KEY =
            Pattern.compile("([^/]+)/dt=(\\d{4}-\\d{2}-\\d{2})/[^/]+\\.parquet");

    private final FileStore store;
    private final GlueConnection glue;
    private final String database;

    GlueCheckingStore(FileStore store, String glueEndpoint, String database) {
        this.store = store;
        this.glue = GlueConnection.of("us-east-1", glueEndpoint).withKeys("AKIDTEST", "test");
        this.database = database;
    }

    @Override
    public String describe() {
        return store.describe();
    }

    @Override
    public Staged stage(Path local, String key) throws IOException {
        Matcher m = KEY.matcher(key);
        if (m.matches()) {
            List<String> fileColumns = new ArrayList<>();
            try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(local))) {
                for (Type field : reader.getFileMetaData().getSchema().getFields()) {
                    fileColumns.add(field.getName().toLowerCase(Locale.ROOT));
                }
            }
            List<String> tableColumns = new ArrayList<>();
            for (Column c : held(m, key).storageDescriptor().columns()) {
                tableColumns.add(c.name());
            }
            if (!tableColumns.containsAll(fileColumns)) {
                throw new IOException(
                        "staging "
                                + key
                                + " with columns "
                                + fileColumns
                                + " while Glue's table has only "
                                + tableColumns);
            }
        } else if (key.endsWith(".parquet")) {
            throw new IOException("not a key in a dt= partition: " + key);
        }
        return store.stage(local, key);
    }

    @Override
    public boolean publish(Staged staged) throws IOException {
        Matcher m = KEY.matcher(staged.key());
        if (m.matches()) {
            held(m, staged.key());
        }
        boolean published = store.publish(staged);
        if (m.matches()) {
            store.put(MARKERS + staged.key(), "checked".getBytes(StandardCharsets.UTF_8));
        }
        return published;
    }

    /** The file's Glue table, after checking it and the file's partition exist. */
    private Table held(Matcher m, String key) throws IOException {
        try (GlueClient client = glue.open()) {
            Table table = client.getTable(b -> b.databaseName(database).name(m.group(1))).table();
            client.getPartition(
                    b ->
                            b.databaseName(database)
                                    .tableName(m.group(1))
                                    .partitionValues(m.group(2)));
            return table;
        } catch (EntityNotFoundException e) {
            throw new IOException(
                    "Glue does not hold the table or partition of " + key + ": " + e.getMessage(),
                    e);
        }
    }

    @Override
    public void discard(Staged staged) throws IOException {
        store.discard(staged);
    }

    @Override
    public void discardStaged(String owner) throws IOException {
        store.discardStaged(owner);
    }

    @Override
    public void put(String key, byte[] bytes) throws IOException {
        store.put(key, bytes);
    }

    @Override
    public byte[] get(String key) throws IOException {
        return store.get(key);
    }

    @Override
    public boolean exists(String key) throws IOException {
        return store.exists(key);
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        return store.list(prefix);
    }

    @Override
    public void delete(String key) throws IOException {
        store.delete(key);
    }

    @Override
    public void download(String key, Path local) throws IOException {
        store.download(key, local);
    }

    @Override
    public Path localStaging() {
        return store.localStaging();
    }

    @Override
    public void close() throws IOException {
        store.close();
    }
}
