package io.skippr.sinks.sql;

import java.io.Serializable;

/**
 * Where and how a SQL sink writes, fixed when the job is built.
 *
 * @param pipeline the pipeline's name
 * @param sink the data sink entry's name
 * @param schema the target schema: target tables, staging tables and the marker table live there
 * @param run this job start's run number, one above the highest in the marker table
 * @param bounded true for a {@code --once} run: all subtasks commit in one transaction at the end
 * @param deadletterRun for a deadletter sink, the data run whose deadletters it takes: a bounded
 *     commit first deletes the rows an earlier attempt of that data run committed; 0 for a data
 *     sink
 * @param softDeletes the pipeline's {@code soft_deletes}: in {@link WriteMode#MERGE} a delete marks
 *     the key's row (its {@code _skippr_deleted} column, which change data capture rows carry)
 *     instead of removing it
 */
public record SqlSinkSettings(
        String pipeline,
        String sink,
        String schema,
        long run,
        boolean bounded,
        WriteMode mode,
        SqlDatabase database,
        long deadletterRun,
        boolean softDeletes)
        implements Serializable {

    public SqlSinkSettings(
            String pipeline,
            String sink,
            String schema,
            long run,
            boolean bounded,
            WriteMode mode,
            SqlDatabase database,
            long deadletterRun) {
        this(pipeline, sink, schema, run, bounded, mode, database, deadletterRun, false);
    }

    public SqlSinkSettings(
            String pipeline,
            String sink,
            String schema,
            long run,
            boolean bounded,
            WriteMode mode,
            SqlDatabase database) {
        this(pipeline, sink, schema, run, bounded, mode, database, 0);
    }

    /** These settings for the deadletter sink of data run {@code dataRun}. */
    public SqlSinkSettings deadletters(long dataRun) {
        return new SqlSinkSettings(pipeline, sink, schema, run, bounded, mode, database, dataRun);
    }

    /** These settings with the pipeline's {@code soft_deletes}. */
    public SqlSinkSettings withSoftDeletes(boolean soft) {
        return new SqlSinkSettings(
                pipeline, sink, schema, run, bounded, mode, database, deadletterRun, soft);
    }

    public SqlDialect dialect() {
        return database.dialect();
    }

    public String qualified(String table) {
        return dialect().qualified(schema, table);
    }
}
