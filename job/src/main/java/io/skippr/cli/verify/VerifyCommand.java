package io.skippr.cli.verify;

import io.skippr.cli.UsageException;
import io.skippr.config.Config;
import io.skippr.config.ConfiguredPipeline;
import io.skippr.config.model.ResolvedPipeline;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SourceContext;
import io.skippr.job.Connectors;
import io.skippr.job.PipelineGraph;
import io.skippr.job.StateDirs;
import io.skippr.sinks.athenaiceberg.AthenaIcebergCatalog;
import io.skippr.sinks.athenaiceberg.AthenaIcebergSinkFactory;
import io.skippr.sinks.clickhouse.ClickHouseException;
import io.skippr.sinks.clickhouse.ClickHouseReadBack;
import io.skippr.sinks.files.FileFormat;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.StoresFiles;
import io.skippr.sinks.iceberg.IcebergCatalogFactory;
import io.skippr.sinks.skipprlake.SkipprLakeCatalog;
import io.skippr.sinks.skipprlake.SkipprLakeSinkFactory;
import io.skippr.sinks.sql.LoadsTable;
import io.skippr.sinks.sql.WriteMode;
import io.skippr.sources.postgres.PostgresSourceConfig;
import io.skippr.sources.postgres.PostgresTables;
import io.skippr.sources.postgres.TableInfo;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code skipprd verify}: compares what a pipeline's source holds with what its sink holds. */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description = {
            "Compares each stream of a pipeline in its data source with its table in the data"
                    + " sink: row counts, then checksums over key ranges narrowed down to the keys"
                    + " missing, extra, duplicated or different. Reads each side in one transaction"
                    + " (read-only where the database has them) and writes nothing (a"
                    + " change-data-capture pipeline's replication slot is read through a temporary"
                    + " copy, dropped at the end).",
            "This version compares PostgreSQL data sources with Postgres, DuckDB, Redshift,"
                    + " Snowflake, BigQuery, ClickHouse, SkipprLake and AthenaIceberg data sinks and LocalFile, S3, GCS,"
                    + " AzureBlob and SFTP data sinks (Parquet, JSONL or CSV),"
                    + " for tables with a primary key of one or more integer, numeric, text, uuid,"
                    + " date, time or timestamp columns.",
            "Exit codes: 0 all streams match, 1 something differs or could not be verified,"
                    + " 2 configuration error."
        })
public final class VerifyCommand implements Callable<Integer> {
    /** The file-family data sinks, read from their stores ({@link StoresFiles}). */
    static final List<String> FILE_SINKS = List.of("LocalFile", "S3", "GCS", "AzureBlob", "SFTP");

    static final List<String> SINKS =
            List.of(
                    "Postgres",
                    "DuckDB",
                    "Redshift",
                    "Snowflake",
                    "BigQuery",
                    "ClickHouse",
                    "LocalFile",
                    "S3",
                    "GCS",
                    "AzureBlob",
                    "SFTP",
                    SkipprLakeSinkFactory.KIND,
                    AthenaIcebergSinkFactory.KIND);

    /** The data sinks that record loads ({@link LoadsTable}). */
    static final List<String> LOADS =
            List.of("Postgres", "DuckDB", "Redshift", "Snowflake", "BigQuery");

    /** How {@code DuckDbDatabase} begins to say that another process holds the file. */
    private static final String LOCKED = " is locked by another process";

    /** The pipeline's {@code soft_deletes}: rows marked deleted are not the source's rows. */
    private boolean softDeletes;

    /**
     * Per stream, the position the data sink committed, read before the destination's rows: a
     * cursor value, or a change-data-capture stream's LSN; null when not known (no cursor column, a
     * sink that could not say).
     */
    private Map<String, String> positions;

    private ConfiguredPipeline configured;

    private PostgresSourceConfig source;

    private static final String DUCKDB_IN_MEMORY = "jdbc:duckdb:";

    private static final String SINK_ADVICE = ": DuckDB lets one process at a time";

    private final Function<Path, Config> configs;
    private final Map<String, String> env;
    private final PrintWriter out;
    private final PrintWriter err;

    @Option(
            names = "--pipeline",
            paramLabel = "PIPELINE",
            required = true,
            description = "The pipeline to verify.")
    String pipeline;

    @Option(
            names = "--stream",
            paramLabel = "STREAM",
            description = "Verify only this stream (default: every stream the pipeline syncs).")
    String stream;

    @Option(
            names = "--since",
            paramLabel = "LOAD",
            description =
                    "Verify only the loads after LOAD, as skipprd history prints it (RUN, or"
                            + " RUN.CHECKPOINT of a continuous run; 0 for every recorded load): each"
                            + " load's row count and checksum, and source and destination within the"
                            + " cursor range those loads cover. Postgres, DuckDB, Redshift and"
                            + " Snowflake and BigQuery data sinks.")
    String since;

    @Option(names = "--json", description = "Print one JSON document instead of the table.")
    boolean json;

    @Option(names = "--config", paramLabel = "FILE", description = "The skippr.yml to use.")
    Path config;

    /**
     * @param configs loads the config file as every command does ({@code --config}, then {@code
     *     $SKIPPR_CONFIG}, then discovery)
     */
    public VerifyCommand(
            Function<Path, Config> configs,
            Map<String, String> env,
            PrintWriter out,
            PrintWriter err) {
        this.configs = configs;
        this.env = env;
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws SQLException {
        configured = configs.apply(config).getPipeline(pipeline);
        ResolvedPipeline run = configured.resolve(env);
        ResolvedSettings sourceSettings = run.dataSource();
        ResolvedSettings sinkSettings = run.dataSink();
        String sourceKind = sourceSettings.entry().kind().name();
        if (!sourceKind.equals("Postgres")) {
            throw new UsageException(
                    "pipeline '"
                            + pipeline
                            + "' reads data_sources."
                            + sourceSettings.entry().name()
                            + " ("
                            + sourceKind
                            + "); skipprd verify compares Postgres data sources only in this"
                            + " version");
        }
        if (sinkSettings == null) {
            throw new UsageException(
                    "pipeline '"
                            + pipeline
                            + "' has no data sink; skipprd verify compares a data source with the"
                            + " data sink it loads (Postgres, DuckDB, Redshift, Snowflake, BigQuery, ClickHouse,"
                            + " LocalFile, S3, GCS, AzureBlob, SFTP, SkipprLake or AthenaIceberg)");
        }
        String sinkKind = sinkSettings.entry().kind().name();
        if (!SINKS.contains(sinkKind)) {
            throw new UsageException(
                    "pipeline '"
                            + pipeline
                            + "' loads data_sinks."
                            + sinkSettings.entry().name()
                            + " ("
                            + sinkKind
                            + "); skipprd verify reads Postgres, DuckDB, Redshift, Snowflake, BigQuery, ClickHouse,"
                            + " LocalFile, S3, GCS, AzureBlob, SFTP, SkipprLake and AthenaIceberg"
                            + " data sinks only in this version");
        }
        if (since != null) {
            Loads.parseId(since); // a usage error before anything is opened
            if (!LOADS.contains(sinkKind)) {
                throw new UsageException(
                        "--since checks the loads a data sink records in "
                                + LoadsTable.NAME
                                + ", which Postgres, DuckDB, Redshift, Snowflake and BigQuery data sinks do; pipeline '"
                                + pipeline
                                + "' loads data_sinks."
                                + sinkSettings.entry().name()
                                + " ("
                                + sinkKind
                                + "): verify it without --since");
            }
        }
        SourceContext sourceContext =
                new SourceContext(
                        pipeline, sourceSettings.entry().name(), sourceSettings, true, Map.of());
        source = PostgresSourceConfig.from(sourceContext);
        // a replication slot nobody has read for long: the pipeline is not running as it should
        PipelineGraph.serverWarnings(Connectors.source(sourceKind), sourceContext)
                .forEach(warning -> err.println("warning: " + warning));
        WriteMode mode = WriteMode.of(run.definition().writeMode());
        softDeletes = run.definition().softDeletes();
        if (sinkKind.equals("ClickHouse")) {
            ClickHouseReadBack database = ClickHouseReadBack.of(sinkSettings);
            try (Connection src = open(() -> source.connection().connect(), "data source")) {
                readOnly(src, Canonical.Dialect.POSTGRES);
                try {
                    database.query("SELECT 1");
                } catch (ClickHouseException e) {
                    throw new UsageException("cannot read the data sink: " + e.getMessage());
                } catch (InterruptedException e) {
                    throw Reader.interrupted(e);
                }
                positions = factoryPositions();
                return compare(src, source, Destination.clickHouse(database), mode);
            }
        }
        if (FILE_SINKS.contains(sinkKind)) {
            return compareFiles(source, sinkSettings, sinkKind);
        }
        if (sinkKind.equals(SkipprLakeSinkFactory.KIND)
                || sinkKind.equals(AthenaIcebergSinkFactory.KIND)) {
            return compareLake(source, sinkSettings, sinkKind, mode);
        }
        SinkDatabase.requireFile(pipeline, sinkSettings, sinkKind);
        try (Connection src = open(() -> source.connection().connect(), "data source")) {
            readOnly(src, Canonical.Dialect.POSTGRES);
            try (SinkDatabase sink = SinkDatabase.open(pipeline, sinkSettings, sinkKind)) {
                if (sink.dialect() == Canonical.Dialect.REDSHIFT
                        || sink.dialect() == Canonical.Dialect.SNOWFLAKE) {
                    fifteenDigits(src);
                }
                SinceCheck loads = null;
                if (since != null) {
                    if (!sink.recordsLoads()) {
                        throw new UsageException(HistoryCommand.noLoads(pipeline, sink));
                    }
                    loads = new SinceCheck(sink, pipeline, since);
                }
                // the first read of the sink's transaction: positions and rows of one snapshot
                positions = tracksPositions() ? sink.positions(pipeline, mode) : null;
                return compare(src, source, sink.destination(), mode, loads);
            }
        }
    }

    /**
     * A file sink's committed Parquet, JSONL or CSV files, read by an in-memory DuckDB: where they
     * are (LocalFile), or downloaded from the store the sink's own factory builds.
     */
    private int compareFiles(
            PostgresSourceConfig source, ResolvedSettings sinkSettings, String sinkKind)
            throws SQLException {
        FileFormat format = FileFormat.of(sinkSettings.string("format").orElse("parquet"));
        String entry = sinkSettings.entry().name();
        FileStore store =
                ((StoresFiles) Connectors.sink(sinkKind))
                        .files(
                                new SinkContext(
                                        pipeline, entry, sinkSettings, false, null, "append"));
        String sink = "data_sinks." + entry + " (" + sinkKind + ")";
        try (Connection src = open(() -> source.connection().connect(), "data source");
                Connection dst = DriverManager.getConnection(DUCKDB_IN_MEMORY)) {
            readOnly(src, Canonical.Dialect.POSTGRES);
            positions = factoryPositions(); // before the commit log lists the files to read
            try (CommittedFiles committed =
                            new CommittedFiles(
                                    store,
                                    sink,
                                    pipeline,
                                    format,
                                    line -> err.println("verify: " + line));
                    FileDestination files = new FileDestination(dst, committed, format)) {
                readOnly(dst, Canonical.Dialect.DUCKDB);
                // file sinks only append: every row version once, the newest equal to the source
                return compare(src, source, files, WriteMode.APPEND);
            }
        }
    }

    /**
     * An Iceberg-family sink's tables at their current snapshots, loaded into an in-memory DuckDB.
     * These sinks append unless the pipeline says {@code write_mode: merge}, keyed streams too.
     */
    private int compareLake(
            PostgresSourceConfig source,
            ResolvedSettings sinkSettings,
            String sinkKind,
            WriteMode mode)
            throws SQLException {
        String entry = sinkSettings.entry().name();
        IcebergCatalogFactory catalog;
        String namespace;
        if (sinkKind.equals(AthenaIcebergSinkFactory.KIND)) {
            catalog = AthenaIcebergCatalog.of("data_sinks." + entry + "." + sinkKind, sinkSettings);
            namespace = AthenaIcebergSinkFactory.namespace(sinkSettings);
        } else {
            SkipprLakeCatalog lake = SkipprLakeCatalog.of("data_sinks", entry, sinkSettings);
            Path embedded = Path.of(lake.warehouse()).resolve(SkipprLakeCatalog.EMBEDDED_FILE);
            if (lake.local()
                    && sinkSettings.string("catalog_uri").isEmpty()
                    && !Files.exists(embedded)) {
                // opening the catalog would create it: verify writes nothing
                throw new UsageException(
                        "cannot read the data sink: "
                                + lake.describe()
                                + " does not exist yet; run skipprd sync --pipeline "
                                + pipeline
                                + " --once first");
            }
            catalog = lake;
            namespace = sinkSettings.string("namespace").orElse("skippr");
        }
        WriteMode lakeMode = mode == WriteMode.MERGE ? WriteMode.MERGE : WriteMode.APPEND;
        try (Connection src = open(() -> source.connection().connect(), "data source");
                Connection dst = DriverManager.getConnection(DUCKDB_IN_MEMORY);
                IcebergDestination tables = new IcebergDestination(dst, catalog, namespace)) {
            readOnly(src, Canonical.Dialect.POSTGRES);
            positions = factoryPositions(); // before any table is read
            return compare(src, source, tables, lakeMode);
        }
    }

    private int compare(
            Connection src, PostgresSourceConfig source, Destination destination, WriteMode mode)
            throws SQLException {
        return compare(src, source, destination, mode, null);
    }

    /** Compares every chosen stream; with {@code loads}, only the loads after {@code --since}. */
    private int compare(
            Connection src,
            PostgresSourceConfig source,
            Destination destination,
            WriteMode mode,
            SinceCheck loads)
            throws SQLException {
        // the source's snapshot is taken here: the slot's changes are peeked after it
        List<TableInfo> chosen = choose(PostgresTables.discover(src, source));
        Consumer<String> progress = line -> err.println("verify: " + line);
        Map<String, Set<Key>> changed =
                source.cdc() != null && loads == null && positions != null
                        ? ChangedKeys.read(
                                source,
                                src,
                                chosen,
                                positions,
                                progress,
                                warning -> err.println("warning: " + warning))
                        : Map.of();
        Tables pairs = new Tables(src, destination, softDeletes, positions, changed);
        List<StreamReport> reports = new ArrayList<>();
        for (TableInfo table : chosen) {
            StreamReport report =
                    loads == null
                            ? pairs.verify(table, mode, progress)
                            : loads.verify(pairs, table, mode, progress);
            // a CDC stream whose changes after its LSN could not be read: not known what is pending
            boolean known = source.cdc() == null || changed.containsKey(table.stream());
            reports.add(known ? report : report.unknownSync());
        }
        out.print(
                json
                        ? VerifyReport.json(pipeline, reports)
                        : VerifyReport.table(pipeline, reports));
        out.flush();
        return VerifyReport.allMatch(reports) ? 0 : 1;
    }

    /**
     * Whether the pipeline's committed positions tell what is not synced yet: cursor values of a
     * cursor column, or the LSNs of change data capture.
     */
    private boolean tracksPositions() {
        return source.cdc() != null || source.cursorColumn() != null;
    }

    /**
     * The positions of a cursor or CDC pipeline's data sink as a run reads them ({@link
     * PipelineGraph#committedPositions}); null, with a warning, when the sink cannot say.
     */
    private Map<String, String> factoryPositions() {
        if (!tracksPositions()) {
            return null;
        }
        try {
            return PipelineGraph.committedPositions(
                    configured, env, StateDirs.of(configured.config().path(), pipeline, env));
        } catch (RuntimeException e) {
            err.println(
                    "warning: cannot read the positions data sink "
                            + configured.resolve(env).dataSink().entry().name()
                            + " committed ("
                            + e.getMessage()
                            + "): source rows not synced yet count as missing or different");
            return null;
        }
    }

    private List<TableInfo> choose(List<TableInfo> tables) {
        if (stream == null) {
            return tables;
        }
        List<TableInfo> chosen = tables.stream().filter(t -> t.stream().equals(stream)).toList();
        if (chosen.isEmpty()) {
            throw new UsageException(
                    "pipeline '"
                            + pipeline
                            + "' has no stream '"
                            + stream
                            + "'; its streams: "
                            + String.join(", ", tables.stream().map(TableInfo::stream).toList()));
        }
        return chosen;
    }

    interface Opener {
        Connection open() throws IOException;
    }

    /** A database that cannot be reached is a configuration error: the cause, never a secret. */
    static Connection open(Opener opener, String what) {
        try {
            return opener.open();
        } catch (IOException e) {
            String message = String.valueOf(e.getMessage());
            int advice = message.indexOf(SINK_ADVICE);
            if (message.contains(LOCKED) && advice > 0) {
                // DuckDbDatabase's advice is a sink's; a verify's differs
                message =
                        message.substring(0, advice)
                                + ": verify opens it read-only, which DuckDB refuses while another"
                                + " process (a running sync) has it open for writing; run verify"
                                + " between --once runs, or after stopping the continuous one";
            }
            throw new UsageException("cannot read the " + what + ": " + message);
        }
    }

    /**
     * Doubles printed with 15 significant digits ({@code extra_float_digits} 0), as Redshift and
     * Snowflake print them: they have no shortest round-trip output, so both sides compare that
     * text.
     */
    static void fifteenDigits(Connection c) throws SQLException {
        try (var s = c.createStatement()) {
            s.execute("SET extra_float_digits TO 0");
        }
    }

    /**
     * Every read in one read-only transaction: PostgreSQL refuses writes in it and gives one
     * snapshot; DuckDB's file is opened read-only already and the transaction gives a snapshot.
     * Redshift's transactions are serializable (one snapshot); its session is in UTC already
     * (RedshiftDatabase), and verify sends it nothing but SELECTs. Snowflake's transactions are
     * READ COMMITTED (each statement sees what was committed when it began), its session is in UTC
     * (SnowflakeDatabase), and verify sends it nothing but SELECTs.
     */
    static void readOnly(Connection c, Canonical.Dialect dialect) throws SQLException {
        if (dialect == Canonical.Dialect.SNOWFLAKE) {
            c.setAutoCommit(false);
            return;
        }
        if (dialect == Canonical.Dialect.BIGQUERY) {
            return; // each query job alone (no snapshot across them), in UTC; only SELECTs
        }
        if (dialect == Canonical.Dialect.REDSHIFT) {
            fifteenDigits(c);
            c.setAutoCommit(false);
            return;
        }
        c.setAutoCommit(false);
        try (var s = c.createStatement()) {
            if (dialect == Canonical.Dialect.POSTGRES) {
                s.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            }
            // keys print alike on both sides: a timestamptz bound cut on one is read on the other
            s.execute("SET TIME ZONE 'UTC'");
        }
    }
}
