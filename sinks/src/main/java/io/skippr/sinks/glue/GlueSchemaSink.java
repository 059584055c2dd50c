package io.skippr.sinks.glue;

import io.skippr.config.ConfigException;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.TableCatalog;
import java.util.List;
import java.util.Objects;

/**
 * The Glue schema sink as its data sink runs it: a {@link GlueTableCatalog} built from a {@code
 * Glue} entry of {@code schema_sinks}. Schema sinks have no factory of their own; the data sink
 * that links one (Athena) builds it, and its writers call it before each file.
 */
public final class GlueSchemaSink {
    /** The partition key of Athena's daily partitions ({@code dt=YYYY-MM-DD}). */
    public static final String DAY = "dt";

    private GlueSchemaSink() {}

    /**
     * The catalog the {@code glue} entry describes, for files that {@code dataSink} writes to its
     * {@code s3_bucket} and {@code s3_prefix} in daily partitions. Both entries name the bucket and
     * prefix; they must agree, since the Glue tables read where the data sink writes.
     *
     * @throws ConfigException if the two entries name different places, or the endpoint is no URL
     */
    public static TableCatalog catalog(ResolvedSettings glue, ResolvedSettings dataSink) {
        String bucket = dataSink.requireString("s3_bucket");
        String prefix = FileStore.prefix(dataSink.string("s3_prefix").orElse(""));
        same(glue, dataSink, "s3_bucket", bucket, glue.requireString("s3_bucket"));
        same(
                glue,
                dataSink,
                "s3_prefix",
                prefix,
                FileStore.prefix(glue.string("s3_prefix").orElse("")));
        GlueConnection connection;
        try {
            connection =
                    GlueConnection.of(
                            glue.string("region").orElse(null),
                            glue.string("glue_endpoint").orElse(null));
        } catch (IllegalArgumentException e) {
            throw ConfigException.of(
                    "skippr.yml", glue.entry().path() + ".glue_endpoint: " + e.getMessage());
        }
        return new GlueTableCatalog(
                connection, glue.requireString("glue_database_name"), bucket, prefix, List.of(DAY));
    }

    private static void same(
            ResolvedSettings glue,
            ResolvedSettings dataSink,
            String field,
            String sinkValue,
            String glueValue) {
        if (!Objects.equals(sinkValue, glueValue)) {
            throw ConfigException.of(
                    "skippr.yml",
                    glue.entry().path()
                            + "."
                            + field
                            + ": expected the value of "
                            + dataSink.entry().path()
                            + "."
                            + field
                            + " ('"
                            + sinkValue
                            + "'), since the Glue tables read the files the data sink writes;"
                            + " found '"
                            + glueValue
                            + "'");
        }
    }
}
