package io.skippr.sinks.staged;

import io.skippr.sinks.sql.SqlCommittable;
import io.skippr.sinks.sql.SqlDialect;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.Staging;
import io.skippr.sinks.sql.StagingTable;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The staged-load family's {@link Staging}: a checkpoint's rows wait as files in the warehouse's
 * stage ({@link StagedFileLoader}), and the commit's transaction loads exactly the files a set's
 * manifest lists into a staging table of the set's name ({@link StagedLoad}), from which the SQL
 * family's commit applies the write mode, inserts the marker row and drops the table, all in that
 * one transaction. The files are removed once the transaction committed (or found its marker); a
 * set no checkpoint holds is removed when a writer of the same pipeline and sink starts.
 */
public final class StagedFiles implements Staging {
    private static final long serialVersionUID = 1L;
    private static final org.slf4j.Logger LOG =
            org.slf4j.LoggerFactory.getLogger(StagedFiles.class);

    private final Stage stage;
    private final StagedLayout layout;
    private final StagedLoad load;
    private final StagedFormat format;

    public StagedFiles(Stage stage, StagedLayout layout, StagedLoad load) {
        this(stage, layout, load, StagedFormat.CSV_GZIP);
    }

    public StagedFiles(Stage stage, StagedLayout layout, StagedLoad load, StagedFormat format) {
        this.stage = stage;
        this.layout = layout;
        this.load = load;
        this.format = format;
    }

    @Override
    public List<SqlDialect.StagingInfo> list(Connection c, SqlSinkSettings settings)
            throws IOException {
        List<SqlDialect.StagingInfo> sets = new ArrayList<>();
        String folder = layout.folder(settings.schema());
        for (String key : stage.list(folder)) {
            String rest = key.substring(folder.length());
            if (rest.endsWith(".manifest") && rest.indexOf('/') < 0) {
                Map<String, String> metadata = stage.metadata(key);
                String comment =
                        metadata == null ? null : StagedLayout.decode(metadata.get(COMMENT_KEY));
                sets.add(
                        new SqlDialect.StagingInfo(
                                rest.substring(0, rest.length() - ".manifest".length()), comment));
            }
        }
        return sets;
    }

    /** S3 returns user-metadata keys in lower case. */
    private static final String COMMENT_KEY = StagedLayout.COMMENT;

    /**
     * Removes the set's files, and its staging table where a commit of it stopped after loading it
     * (a warehouse whose statements each commit alone keeps it: Databricks); elsewhere there is
     * none.
     */
    @Override
    public void discard(Connection c, SqlSinkSettings settings, String name)
            throws SQLException, IOException {
        try (Statement st = c.createStatement()) {
            st.execute(settings.dialect().dropTable(settings.qualified(name)));
        }
        remove(settings, name);
    }

    private void remove(SqlSinkSettings settings, String name) throws IOException {
        List<String> parts = stage.list(layout.set(settings.schema(), name) + "/");
        if (!parts.isEmpty()) {
            stage.delete(parts);
        }
        // last: only a manifest makes a set visible, to listings and loads alike
        stage.delete(List.of(layout.manifest(settings.schema(), name)));
    }

    @Override
    public boolean load(Connection c, SqlSinkSettings settings, SqlCommittable rows)
            throws SQLException {
        String manifest = layout.manifest(settings.schema(), rows.staging());
        Map<String, String> metadata;
        try {
            metadata = stage.metadata(manifest);
        } catch (IOException e) {
            throw new SQLException("reading " + stage.url(manifest) + ": " + e.getMessage(), e);
        }
        if (metadata == null) {
            return false;
        }
        SqlDialect dialect = settings.dialect();
        if (dialect.transactionalDdl()) {
            // else the commit created it before its transaction began (CommitTransaction)
            StagingTable table = StagingTable.of(dialect, settings.schema(), rows);
            try (Statement st = c.createStatement()) {
                st.execute(table.create(dialect));
            }
        }
        String parts = metadata.get(StagedLayout.PARTS);
        if (parts == null) {
            throw new SQLException(
                    stage.url(manifest) + " has no " + StagedLayout.PARTS + " metadata", "XX000");
        }
        List<String> files = new ArrayList<>();
        for (int i = 0; i < Integer.parseInt(parts); i++) {
            files.add(layout.part(settings.schema(), rows.staging(), i, format.extension()));
        }
        load.load(c, settings.qualified(rows.staging()), stage.url(manifest), files);
        checkLoaded(c, settings, rows);
        return true;
    }

    /**
     * Fails the commit unless the staging table holds exactly the rows the writer staged: a load
     * that matched no column (a warehouse that folded the staged names), skipped a file it believed
     * loaded before, or read a stale part would otherwise commit, marker and all, what it did not
     * stage.
     */
    private static void checkLoaded(Connection c, SqlSinkSettings settings, SqlCommittable rows)
            throws SQLException {
        try (Statement st = c.createStatement();
                java.sql.ResultSet rs =
                        st.executeQuery(
                                "SELECT count(*) FROM " + settings.qualified(rows.staging()))) {
            rs.next();
            long loaded = rs.getLong(1);
            if (loaded != rows.rows()) {
                throw new SQLException(
                        "loading the staged set "
                                + rows.staging()
                                + " put "
                                + loaded
                                + " rows in its staging table, and the writer staged "
                                + rows.rows(),
                        "XX000");
            }
        }
    }

    @Override
    public void committed(SqlSinkSettings settings, List<SqlCommittable> committables) {
        for (SqlCommittable committable : committables) {
            if (committable.kind() != SqlCommittable.Kind.ROWS) {
                continue;
            }
            try {
                remove(settings, committable.staging());
            } catch (IOException | RuntimeException e) {
                LOG.warn(
                        "Could not remove the committed staged files {} of pipeline {}; the next"
                                + " start of the pipeline removes them: {}",
                        describe(settings, committable.staging()),
                        settings.pipeline(),
                        e.getMessage());
            }
        }
    }

    @Override
    public String describe(SqlSinkSettings settings, String name) {
        return "Staged files " + stage.url(layout.manifest(settings.schema(), name));
    }
}
