package io.skippr.job.deadletters;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.sinks.azureblob.AzureBlobFileStore;
import io.skippr.sinks.files.FileFormat;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.LocalFileStore;
import io.skippr.sinks.gcs.GcsFileStore;
import io.skippr.sinks.postgres.PostgresDatabase;
import io.skippr.sinks.s3.S3Connection;
import io.skippr.sinks.s3.S3FileStore;
import io.skippr.sinks.sftp.SftpFileStore;
import io.skippr.sinks.skipprlake.SkipprLakeCatalog;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * Opens a pipeline's deadletter sink for reading, by its kind: a SQL table or the files it
 * committed. Kinds that keep nothing to read back, or that Skippr does not read yet, are refused
 * with the reason and what to use instead.
 */
public final class DeadletterStores {
    private DeadletterStores() {}

    private static final Map<String, Function<ResolvedSettings, DeadletterStore>> READABLE =
            Map.of(
                    "Postgres", DeadletterStores::postgres,
                    "DuckDB", DeadletterStores::duckDb,
                    "LocalFile",
                            s ->
                                    files(
                                            s,
                                            new LocalFileStore(
                                                    Path.of(s.requireString("path"))
                                                            .toAbsolutePath())),
                    "S3", DeadletterStores::s3,
                    "GCS",
                            s ->
                                    files(
                                            s,
                                            new GcsFileStore(
                                                    s.requireString("bucket"),
                                                    s.string("prefix").orElse(null),
                                                    s.string("project_id").orElse(null),
                                                    s.string("credentials_file").orElse(null),
                                                    s.string("endpoint").orElse(null))),
                    "AzureBlob", DeadletterStores::azure,
                    "SFTP", DeadletterStores::sftp,
                    "SkipprLake",
                            s ->
                                    new LakeDeadletterStore(
                                            SkipprLakeCatalog.of(
                                                    "deadletter_sinks", s.entry().name(), s),
                                            s.string("namespace").orElse("skippr")));

    private static final String USE_INSTEAD =
            "; to list and replay deadletters, use a table (Postgres, DuckDB, SkipprLake) or files"
                    + " (LocalFile, S3, GCS, AzureBlob, SFTP) as the deadletter sink";

    /**
     * The store of deadletter sink {@code entry} ({@code deadletter_sinks.<entry>}).
     *
     * @throws CannotReadDeadletters for a kind whose deadletters cannot be read back
     */
    public static DeadletterStore open(String entry, ResolvedSettings settings) {
        String kind = settings.entry().kind().name();
        String named = "deadletter_sinks." + entry + " (" + kind + ")";
        var opener = READABLE.get(kind);
        if (opener != null) {
            return opener.apply(settings);
        }
        String why =
                switch (kind) {
                    case "Stdout" ->
                            " prints each deadletter as a line and keeps nothing, so there is"
                                    + " nothing to read back";
                    case "AMQP" ->
                            " publishes each deadletter as a message; the queues that receive them"
                                    + " belong to their consumers, and reading them would take"
                                    + " the messages away from them, so skipprd does not read"
                                    + " them back";
                    default -> " is not read back by skipprd yet";
                };
        throw new CannotReadDeadletters(named + why + USE_INSTEAD);
    }

    private static DeadletterStore postgres(ResolvedSettings s) {
        PostgresDatabase database =
                new PostgresDatabase(
                        s.requireString("host"),
                        s.integer("port").orElse(5432L).intValue(),
                        s.requireString("database"),
                        s.requireString("user"),
                        s.secret("password").orElse(null),
                        s.string("sslmode").orElse(null),
                        s.string("sslrootcert").orElse(null));
        return new SqlDeadletterStore(
                database::connect, s.string("schema").orElse("public"), database.describe());
    }

    private static DeadletterStore duckDb(ResolvedSettings s) {
        Path file = Path.of(s.requireString("path")).toAbsolutePath();
        Properties readOnly = new Properties();
        readOnly.setProperty("duckdb.read_only", "true");
        return new SqlDeadletterStore(
                () -> DriverManager.getConnection("jdbc:duckdb:" + file, readOnly),
                s.string("schema").orElse("main"),
                "DuckDB " + file);
    }

    private static DeadletterStore s3(ResolvedSettings s) {
        S3Connection connection =
                S3Connection.of(
                        s.string("region").orElse(null),
                        s.string("endpoint").orElse(null),
                        s.bool("path_style_access"));
        return files(
                s,
                new S3FileStore(
                        connection,
                        s.requireString("s3_bucket"),
                        s.string("s3_prefix").orElse("")));
    }

    private static DeadletterStore azure(ResolvedSettings s) {
        return files(
                s,
                new AzureBlobFileStore(
                        s.requireString("account_name"),
                        s.secret("account_key").orElse(null),
                        s.requireString("container"),
                        s.string("prefix").orElse(null),
                        s.string("endpoint").orElse(null)));
    }

    private static DeadletterStore sftp(ResolvedSettings s) {
        return files(
                s,
                new SftpFileStore(
                        new SftpFileStore.Settings(
                                s.requireString("host"),
                                s.integer("port").orElse(22L).intValue(),
                                s.requireString("user"),
                                s.secret("password").orElse(null),
                                s.string("private_key_file").orElse(null),
                                s.secret("private_key_passphrase").orElse(null),
                                s.string("known_hosts_file").orElse(null),
                                s.requireString("path"))));
    }

    private static DeadletterStore files(ResolvedSettings s, FileStore store) {
        return new FileDeadletterStore(store, FileFormat.of(s.string("format").orElse("parquet")));
    }
}
