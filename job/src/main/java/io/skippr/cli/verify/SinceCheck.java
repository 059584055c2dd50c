package io.skippr.cli.verify;

import io.skippr.sinks.sql.LoadsTable;
import io.skippr.sinks.sql.WriteMode;
import io.skippr.sources.postgres.TableInfo;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code verify --since LOAD} for one stream: the loads recorded after {@code LOAD}, each checked
 * by its row count and checksum against the destination's rows in its cursor range, and source and
 * destination compared within the cursor range all of them cover, key by key. Nothing outside the
 * range is read.
 */
final class SinceCheck {
    private final SinkDatabase sink;
    private final String pipeline;
    private final String since;
    private final long[] after;

    SinceCheck(SinkDatabase sink, String pipeline, String since) {
        this.sink = sink;
        this.pipeline = pipeline;
        this.since = since;
        this.after = Loads.parseId(since);
    }

    StreamReport verify(Tables pairs, TableInfo table, WriteMode mode, Consumer<String> progress)
            throws SQLException {
        String stream = table.stream();
        List<Loads.Load> loads = new ArrayList<>();
        for (Loads.Load load :
                Loads.read(
                        sink.reader(),
                        sink.dialect(),
                        sink.loadsTable(),
                        pipeline,
                        sink.sink(),
                        stream)) {
            if (load.after(after)) {
                loads.add(0, load); // oldest first
            }
        }
        if (loads.isEmpty()) {
            return new StreamReport(
                    stream,
                    0,
                    0,
                    StreamReport.Kind.NONE,
                    StreamReport.Kind.NONE,
                    StreamReport.Kind.NONE,
                    StreamReport.Kind.NONE,
                    "no load after load " + since,
                    true);
        }
        if (table.cursorColumn() == null || loads.stream().anyMatch(l -> l.load().from() == null)) {
            return StreamReport.notVerifiable(
                    stream,
                    "its loads after load "
                            + since
                            + " record no cursor range (the stream has no cursor column), so"
                            + " --since cannot bound them; verify it without --since");
        }
        LoadsTable.Load all = loads.get(0).load();
        for (Loads.Load load : loads.subList(1, loads.size())) {
            all = all.plus(load.load());
        }
        Tables.CursorRange range = new Tables.CursorRange(all.from(), all.to());
        progress.accept(
                stream
                        + ": "
                        + loads.size()
                        + " loads after load "
                        + since
                        + ", cursor "
                        + table.cursorColumn()
                        + " from "
                        + range.from()
                        + " to "
                        + range.to());
        StreamReport report = pairs.verify(table, mode, progress, range);
        if (!report.verified()) {
            return report;
        }
        List<LoadCheck> checks = new ArrayList<>();
        for (Loads.Load load : loads) {
            Tables.CursorRange own = new Tables.CursorRange(load.load().from(), load.load().to());
            long[] ids = pairs.destinationIds(table, own);
            checks.add(LoadCheck.of(load, pairs.sourceRows(table, own), ids[0], ids[1]));
        }
        return report.withLoads(checks);
    }
}
