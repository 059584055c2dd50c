package io.skippr.sinks.skipprlake;

import io.skippr.config.ConfigException;
import io.skippr.config.Secret;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.sinks.iceberg.IcebergCatalogFactory;
import io.skippr.sinks.s3.S3Connection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.util.SerializableSupplier;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * SkipprLake's Iceberg JDBC catalog and warehouse. The catalog is embedded (a SQLite file, {@value
 * #EMBEDDED_FILE}, inside a local warehouse) unless {@code catalog_uri} names a shared one
 * (PostgreSQL). An {@code s3://} warehouse needs the shared catalog: a SQLite file cannot be locked
 * through S3, so it is refused without one. Data files go through S3FileIO (the AWS SDK's default
 * credential chain; path-style addressing when {@code s3_endpoint} is set) or, for a local
 * warehouse, through Hadoop's raw local file system.
 */
public final class SkipprLakeCatalog implements IcebergCatalogFactory {
    private static final long serialVersionUID = 1L;

    /** The embedded catalog's file in a local warehouse. */
    public static final String EMBEDDED_FILE = "_skippr_catalog.sqlite";

    static final String CATALOG_NAME = "skippr";

    private final String warehouse;
    private final String uri;
    private final String user;
    private final Secret password;
    private final S3Connection s3;

    private SkipprLakeCatalog(
            String warehouse, String uri, String user, Secret password, S3Connection s3) {
        this.warehouse = warehouse;
        this.uri = uri;
        this.user = user;
        this.password = password;
        this.s3 = s3;
    }

    /** The catalog of a SkipprLake entry, refusing settings that cannot work. */
    public static SkipprLakeCatalog of(String section, String entry, ResolvedSettings settings) {
        return of(
                section + "." + entry + ".SkipprLake.",
                settings.requireString("warehouse"),
                settings.string("catalog_uri").orElse(null),
                settings.string("catalog_user").orElse(null),
                settings.secret("catalog_password").orElse(null),
                settings.string("s3_endpoint").orElse(null),
                settings.string("region").orElse(null));
    }

    /**
     * The catalog of these settings; {@code at} is the YAML path of the entry's fields, for errors,
     * such as {@code data_sinks.lake.SkipprLake.}.
     */
    public static SkipprLakeCatalog of(
            String at,
            String warehouse,
            String uri,
            String user,
            Secret password,
            String s3Endpoint,
            String region) {
        warehouse = warehouse.trim();
        uri = uri == null || uri.isBlank() ? null : uri.trim();
        if (uri != null && !uri.startsWith("jdbc:")) {
            throw ConfigException.of(
                    "skippr.yml",
                    at
                            + "catalog_uri: expected a JDBC URL such as"
                            + " jdbc:postgresql://catalog-db:5432/lake, found "
                            + uri.replaceAll("\\?.*", "?…"));
        }
        if (uri != null
                && (uri.matches("(?i)jdbc:[a-z]+://[^/?]*@.*")
                        || uri.matches("(?i).*[?&;]password=.*"))) {
            throw ConfigException.of(
                    "skippr.yml",
                    at
                            + "catalog_uri: holds a password; give it in catalog_password"
                            + " (usually ${VAR}), which Skippr never prints");
        }
        String lower = warehouse.toLowerCase(Locale.ROOT);
        if (lower.startsWith("s3://") || lower.startsWith("s3a://")) {
            if (uri == null) {
                throw ConfigException.of(
                        "skippr.yml",
                        at
                                + "catalog_uri: an s3:// warehouse needs a shared catalog: set"
                                + " catalog_uri to a PostgreSQL database (such as"
                                + " jdbc:postgresql://catalog-db:5432/lake). The embedded catalog is"
                                + " a SQLite file, which cannot be locked through S3");
            }
            S3Connection s3;
            try {
                s3 = S3Connection.of(region, s3Endpoint, s3Endpoint != null);
            } catch (IllegalArgumentException e) {
                throw ConfigException.of("skippr.yml", at + "s3_endpoint: " + e.getMessage());
            }
            return new SkipprLakeCatalog(
                    "s3://"
                            + warehouse
                                    .substring(warehouse.indexOf("://") + 3)
                                    .replaceAll("/+$", ""),
                    uri,
                    user,
                    password,
                    s3);
        }
        if (lower.matches("^[a-z][a-z0-9+.-]*://.*") && !lower.startsWith("file://")) {
            throw ConfigException.of(
                    "skippr.yml",
                    at
                            + "warehouse: expected a local folder or s3://bucket/path, found "
                            + warehouse);
        }
        Path local =
                Path.of(lower.startsWith("file://") ? warehouse.substring(7) : warehouse)
                        .toAbsolutePath()
                        .normalize();
        return new SkipprLakeCatalog(
                local.toString(),
                uri == null ? "jdbc:sqlite:" + local.resolve(EMBEDDED_FILE) : uri,
                user,
                password,
                null);
    }

    /** The warehouse: an absolute local path, or {@code s3://bucket/path}. */
    public String warehouse() {
        return warehouse;
    }

    /** Whether the warehouse is a local folder. */
    public boolean local() {
        return s3 == null;
    }

    @Override
    public Catalog open() {
        if (local()) {
            try {
                Files.createDirectories(Path.of(warehouse));
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot create the SkipprLake warehouse " + warehouse, e);
            }
        }
        Map<String, String> properties = new HashMap<>();
        properties.put(CatalogProperties.URI, uri);
        properties.put(CatalogProperties.WAREHOUSE_LOCATION, warehouse);
        properties.put("jdbc.schema-version", "V1");
        if (uri.startsWith("jdbc:sqlite:")) {
            // writers and the committer share the file: wait for its lock rather than fail
            properties.put("jdbc.busy_timeout", "60000");
            properties.put("jdbc.journal_mode", "WAL");
        }
        if (user != null) {
            properties.put("jdbc.user", user);
        }
        if (password != null) {
            properties.put("jdbc.password", password.reveal());
        }
        JdbcCatalog catalog = new JdbcCatalog(this::fileIO, null, true);
        catalog.initialize(CATALOG_NAME, properties);
        return catalog;
    }

    private FileIO fileIO(Map<String, String> properties) {
        FileIO io;
        if (s3 != null) {
            S3Connection connection = s3;
            SerializableSupplier<S3Client> client = connection::open;
            // Without an async client S3FileIO would build one through its default client
            // factory (which needs the STS, KMS, Glue and DynamoDB SDKs); nothing here reads
            // through the async client (the analytics accelerator is off).
            SerializableSupplier<S3AsyncClient> noAsync =
                    () -> {
                        throw new UnsupportedOperationException(
                                "SkipprLake reads S3 through the synchronous client only");
                    };
            io = new S3FileIO(client, noAsync);
        } else {
            Configuration conf = new Configuration();
            // no .crc files beside the data files
            conf.set("fs.file.impl", RawLocalFileSystem.class.getName());
            conf.setBoolean("fs.file.impl.disable.cache", true);
            io = new HadoopFileIO(conf);
        }
        Map<String, String> ioProperties = new HashMap<>(properties);
        ioProperties.remove("jdbc.password");
        io.initialize(ioProperties);
        return io;
    }

    @Override
    public String describe() {
        return "the SkipprLake warehouse "
                + warehouse
                + " (catalog "
                + uri.replaceAll("\\?.*", "")
                + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}
