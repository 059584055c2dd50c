package io.skippr.sources.postgres;

import io.skippr.config.ConfigError;
import io.skippr.config.ConfigException;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SourceContext;
import java.io.Serializable;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.flink.util.function.SerializableSupplier;

/**
 * The replication slot and publication of a source with {@code replication_method: cdc}.
 *
 * @param slot the logical replication slot's name
 * @param publication the publication's name
 * @param committed reads the destination's committed positions while the job runs; null when the
 *     sink cannot be read from a task (the slot then moves only when a run starts)
 * @param walWarningBytes how much WAL the slot may keep on the server before the reader warns
 */
public record CdcSettings(
        String slot,
        String publication,
        SerializableSupplier<Map<String, String>> committed,
        long walWarningBytes)
        implements Serializable {
    /** PostgreSQL's rule for slot names, used for publications too so both read the same. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9_]{1,63}");

    private static final int MAX_NAME = 63;

    /**
     * The settings of {@code context}'s data source, or null unless its replication method is cdc.
     *
     * @throws ConfigException for a replication method that contradicts the cursor column, or a
     *     slot or publication name PostgreSQL would refuse
     */
    static CdcSettings of(SourceContext context, String cursorColumn) {
        ResolvedSettings s = context.settings();
        String path = "data_sources." + context.entry() + ".Postgres";
        String method = s.string("replication_method").orElse(null);
        if ("cursor".equals(method) && cursorColumn == null) {
            throw error(
                    path + ".replication_method",
                    "replication_method cursor needs cursor_column: name the column whose growth"
                            + " marks new or changed rows, or use replication_method cdc");
        }
        if ("full".equals(method) && cursorColumn != null) {
            throw error(
                    path + ".replication_method",
                    "replication_method full reads every row each run and takes no"
                            + " cursor_column: remove cursor_column, or use replication_method"
                            + " cursor");
        }
        if (!"cdc".equals(method)) {
            for (String field :
                    new String[] {
                        "slot_name",
                        "publication",
                        "slot_wal_warning_mb",
                        CdcServerState.INACTIVE_MINUTES
                    }) {
                if (s.string(field).isPresent()) {
                    throw error(
                            path + "." + field,
                            field
                                    + " is only used by replication_method cdc: remove it, or set"
                                    + " replication_method: cdc");
                }
            }
            return null;
        }
        if (cursorColumn != null) {
            throw error(
                    path + ".cursor_column",
                    "replication_method cdc reads every change from the replication slot and"
                            + " takes no cursor_column: remove cursor_column, or use"
                            + " replication_method cursor");
        }
        String fallback = defaultName(context.pipeline());
        long walWarningMb = s.integer("slot_wal_warning_mb").orElse(1024L);
        if (walWarningMb < 1) {
            throw error(
                    path + ".slot_wal_warning_mb",
                    "slot_wal_warning_mb is "
                            + walWarningMb
                            + ": give the MiB of WAL the slot may keep before Skippr warns, 1 or"
                            + " more");
        }
        return new CdcSettings(
                name(s, "slot_name", "replication slot", fallback, path),
                name(s, "publication", "publication", fallback, path),
                context.committed(),
                walWarningMb * 1024 * 1024);
    }

    /** {@code skippr_<pipeline>} in lower case, other characters as underscores, 63 at most. */
    static String defaultName(String pipeline) {
        String name = ("skippr_" + pipeline).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        return name.length() > MAX_NAME ? name.substring(0, MAX_NAME) : name;
    }

    private static String name(
            ResolvedSettings s, String field, String what, String fallback, String path) {
        String value = s.string(field).orElse(fallback);
        if (!NAME.matcher(value).matches()) {
            throw error(
                    path + "." + field,
                    field
                            + " "
                            + value
                            + " is not a valid "
                            + what
                            + " name: use 1 to 63 lower-case letters, digits and underscores");
        }
        return value;
    }

    private static ConfigException error(String path, String message) {
        return new ConfigException(new ConfigError("skippr.yml", 0, 0, path, message));
    }
}
