package io.skippr.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.ConfigException;
import io.skippr.config.catalog.Catalog;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.Role;
import io.skippr.core.record.DataType;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.FailPoint.Stage;
import io.skippr.job.PipelineGraph;
import io.skippr.sinks.files.FileStore;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The contract every data sink passes, against the real PostgreSQL as its source: a destination
 * adds a one-line subclass naming its {@link SinkFixture}, and is held to the guarantee the fixture
 * writes out (which the catalog must state too). Each test states its pass condition.
 */
public abstract class SinkConformanceKit {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(8)
                            .build());

    @TempDir protected Path dir;
    SinkFixture fixture;
    SourceTable source;
    KitPipeline pipeline;

    /** The destination under test. */
    protected abstract SinkFixture fixture() throws Exception;

    @BeforeEach
    void open(@InjectMiniCluster MiniCluster cluster) throws Exception {
        fixture = fixture();
        source = new SourceTable();
        pipeline = new KitPipeline(dir, fixture, source, cluster);
    }

    @AfterEach
    void close() throws Exception {
        source.close();
        fixture.close();
    }

    /** The guarantee the fixture writes out, never the product's own catalog entry. */
    private Guarantee guarantee() {
        return fixture.guarantee();
    }

    /**
     * Passes when the catalog, which users read (and the docs are generated from), states the
     * guarantee the fixture pins: a catalog that loosens a kind's guarantee fails here, rather than
     * loosening the checks below.
     */
    @Test
    void theCatalogStatesTheGuaranteeTheKitHoldsItTo() {
        assertCatalogStates(fixture);
    }

    /** Fails unless the catalog's guarantee for the fixture's kind is the one the fixture pins. */
    static void assertCatalogStates(SinkFixture fixture) {
        assertThat(Catalog.get().get(Role.DATA_SINK, fixture.kind()).guarantee())
                .as("the catalog's guarantee for " + fixture.kind())
                .isEqualTo(fixture.guarantee());
    }

    private boolean exactlyOnce() {
        return guarantee() == Guarantee.EXACTLY_ONCE;
    }

    KitPipeline.Run orders() {
        return pipeline.table("orders", "updated_at");
    }

    /**
     * Passes when the destination holds each source row of {@code from..to-1} after one run without
     * an injected failure: {@link #assertHolds(String, SourceTable.Expected, boolean)}, and every
     * destination stores each row once (an at-least-once one too: nothing made it send a row
     * again).
     */
    void assertHolds(String stream, long from, long to) throws Exception {
        assertHolds(stream, from, to, false);
    }

    /**
     * The same where an at-least-once destination may hold copies: after a run that failed, was
     * killed or was restored, and after a second run over the same rows into a destination that
     * commits no source position (ClickHouse and Stdout read their source from the start in each
     * run, docs/connectors/clickhouse.md).
     */
    private void assertHoldsAfterFailure(String stream, long from, long to) throws Exception {
        assertHolds(stream, from, to, true);
    }

    /** After runs without failures, of which an earlier one read some of the same rows. */
    private void assertHoldsAfterReruns(String stream, long from, long to) throws Exception {
        assertHolds(stream, from, to, !exactlyOnce());
    }

    private void assertHolds(String stream, long from, long to, boolean copies) throws Exception {
        assertHolds(stream, source.expected(stream, from, to), copies);
        if (guarantee() != Guarantee.AT_LEAST_ONCE) {
            assertThat(amounts(fixture.rows(dir, stream)))
                    .isEqualByComparingTo(SourceTable.amountSum(from, to));
        }
    }

    private static BigDecimal amounts(List<Map<String, Object>> rows) {
        BigDecimal amounts = BigDecimal.ZERO;
        for (Map<String, Object> row : rows) {
            amounts = amounts.add(new BigDecimal(String.valueOf(row.get("amount"))));
        }
        return amounts;
    }

    /**
     * Passes when the destination holds each row of {@code want}: every key and one {@code
     * _skippr_id} per key, every column of every row as the source has it (an md5 over the rows in
     * {@link Canonical} form, see {@link Digest}); an exactly-once destination holds each exactly
     * once; a deduplicating one shows each once to its reader; and, unless {@code copies} (an
     * at-least-once destination may hold copies, see {@link #assertHoldsAfterFailure}), every
     * destination stores each row once.
     */
    void assertHolds(String stream, SourceTable.Expected want, boolean copies) throws Exception {
        List<Map<String, Object>> rows = fixture.rows(dir, stream);
        Set<Object> ids = new HashSet<>();
        Map<Long, Object> idOfKey = new HashMap<>();
        for (Map<String, Object> row : rows) {
            ids.add(row.get("_skippr_id"));
            long key = ((Number) row.get("id")).longValue();
            Object previous = idOfKey.put(key, row.get("_skippr_id"));
            assertThat(previous == null || previous.equals(row.get("_skippr_id")))
                    .as("a replayed row keeps its _skippr_id (key " + key + ")")
                    .isTrue();
        }
        int n = want.rows().size();
        assertThat(idOfKey.keySet()).as("every source row arrived").hasSize(n);
        assertThat(ids).as("one _skippr_id per source row").hasSize(n);
        boolean atLeastOnce = guarantee() == Guarantee.AT_LEAST_ONCE;
        if (!atLeastOnce) {
            assertThat(rows).as(guarantee().label() + ": no row twice").hasSize(n);
        }
        if (!copies) {
            assertThat(fixture.storedCount(dir, stream))
                    .as(guarantee().label() + ", after runs without failures: rows stored")
                    .isEqualTo(n);
        }
        assertSameRows(fixture, want, rows, atLeastOnce);
    }

    /**
     * Passes when {@code rows} hold every column of every row of {@code want} as the source has it
     * (or as the destination's docs say it lands): the md5 over the rows in {@link Canonical} form
     * equals the source's. With {@code copies} (an at-least-once destination) a key's equal copies
     * count once; a copy that differs still fails.
     */
    static void assertSameRows(
            SinkFixture fixture,
            SourceTable.Expected want,
            List<Map<String, Object>> rows,
            boolean copies) {
        Map<Long, List<String>> expected = Digest.expected(fixture, want);
        Map<Long, List<String>> held = Digest.held(fixture, want.columns(), rows, copies);
        assertThat(Digest.md5(held))
                .as(
                        "md5 over every column of every row, against the source's; differences: "
                                + Digest.differences(expected, held))
                .isEqualTo(Digest.md5(expected));
    }

    long keys(String stream) throws Exception {
        return keys(fixture, dir, stream);
    }

    /**
     * How many distinct keys the destination holds for {@code stream}. Zero only when its table or
     * folder does not exist (the fixture's reader says so by returning no rows); any read error (a
     * truncated file, an unreadable table, Iceberg metadata pointing to a missing file) fails the
     * test rather than passing for "nothing visible".
     */
    static long keys(SinkFixture fixture, Path dir, String stream) throws Exception {
        Set<Long> keys = new HashSet<>();
        for (Map<String, Object> row : fixture.rows(dir, stream)) {
            keys.add(((Number) row.get("id")).longValue());
        }
        return keys.size();
    }

    private static long written(Map<String, Map<String, Long>> counters, String stream) {
        return counters.getOrDefault(stream, Map.of()).getOrDefault("written", 0L);
    }

    /**
     * Passes when a change data capture source's inserts, updates (one leaving a TOASTed value
     * unchanged), deletes, added column, keyless table and table added between runs reach the
     * destination once over three --once runs: equal to the source by md5 per key where it merges,
     * else every change once in commit order per key ({@link CdcKitCase}).
     */
    @Test
    void changeDataCaptureReachesTheDestinationOnce() throws Exception {
        new CdcKitCase(this).run();
    }

    /**
     * Passes when a bounded run copies every row, and a second one over unchanged data adds none:
     * an exactly-once destination is not even sent them (its committed cursor says so); a
     * deduplicating one may receive them again, but holds each row once.
     */
    @Test
    void aSecondOnceRunOverUnchangedDataAddsNoRows() throws Exception {
        source.orders("orders", 1, 3001);
        assertThat(written(pipeline.once(orders()), "orders")).isEqualTo(3000L);
        assertHolds("orders", 1, 3001);

        long second = written(pipeline.once(orders()), "orders");
        if (exactlyOnce()) {
            assertThat(second).as("rows sent by the second run").isZero();
        }
        assertHoldsAfterReruns("orders", 1, 3001);

        source.orders("orders", 3001, 3501);
        long third = written(pipeline.once(orders()), "orders");
        if (exactlyOnce()) {
            assertThat(third).as("rows sent by the third run").isEqualTo(500L);
        }
        assertHoldsAfterReruns("orders", 1, 3501);
    }

    /**
     * After the expected rows arrived in a continuous run: a quiet period of two more checkpoints
     * ({@link KitPipeline.Continuous#quiet}), then the destination must still hold just {@code
     * expected} rows, so a late duplicate shows: as its reader sees them, or, after runs without
     * failures, as it stores them. An at-least-once destination may hold copies after a failure.
     */
    private void quietThenCheck(
            KitPipeline.Continuous run, String stream, long expected, boolean copies)
            throws Exception {
        quietThenCheck(run, fixture, dir, stream, expected, copies);
    }

    /**
     * {@link #quietThenCheck(KitPipeline.Continuous, String, long, boolean)} of {@code fixture}.
     */
    static void quietThenCheck(
            KitPipeline.Continuous run,
            SinkFixture fixture,
            Path dir,
            String stream,
            long expected,
            boolean copies)
            throws Exception {
        run.quiet();
        if (copies && fixture.guarantee() == Guarantee.AT_LEAST_ONCE) {
            return;
        }
        long[] held = new long[1];
        KitPipeline.await(
                () -> {
                    held[0] =
                            copies
                                    ? fixture.rows(dir, stream).size()
                                    : fixture.storedCount(dir, stream);
                    return true;
                });
        assertThat(held[0])
                .as("rows held after a quiet period of two checkpoints")
                .isEqualTo(expected);
    }

    /**
     * Passes when a continuous run stopped at parallelism 2 and restored from its retained
     * checkpoint at parallelism 1, then at 3 (as {@code skipprd} resumes from the latest checkpoint
     * in its state folder, {@code parallelism.default} changed in its Flink configuration), loses
     * and repeats no row: new rows arrive while each restored run runs, and a quiet period after
     * each shows late duplicates. A restore is not a failure of the run, but an at-least-once
     * destination may send again what the checkpoint had not covered. The destinations that
     * implement {@link RescaledSinkConformance} run it.
     */
    void restoredAtAnotherParallelism() throws Exception {
        source.orders("orders", 1, 601);
        Path checkpoint = null;
        long[][] steps = {{2, 601}, {1, 1201}, {3, 1801}};
        for (long[] step : steps) {
            int parallelism = (int) step[0];
            long to = step[1];
            if (to > 601) {
                source.orders("orders", to - 600, to);
            }
            try (var run = pipeline.start(orders(), parallelism, checkpoint)) {
                KitPipeline.await(() -> keys("orders") >= to - 1);
                quietThenCheck(run, "orders", to - 1, !exactlyOnce());
                if (checkpoint != null) {
                    assertThat(run.restoredFrom())
                            .as("the run at parallelism " + parallelism + " restored")
                            .endsWith(checkpoint.getFileName().toString());
                }
            }
            checkpoint =
                    io.skippr.job.Checkpoints.latest(pipeline.checkpoints())
                            .orElseThrow(() -> new AssertionError("no retained checkpoint"));
        }
        assertHoldsAfterReruns("orders", 1, 1801);
    }

    /** Fails once: at a subtask's {@code midBatchRow}th row, or at its first commit. */
    private FailPoint failOnce(Stage stage, long midBatchRow) {
        long nth = stage == Stage.MID_BATCH ? midBatchRow : 1;
        return FailPoint.throwOnce(stage, nth, dir.resolve("failed-once"));
    }

    /**
     * Passes when a continuous run that fails once, in the middle of a batch, after a pre-commit
     * (its checkpoint taken, the commit not begun), or after a commit (before Flink learns of it),
     * still delivers every row, exactly once where the destination promises it.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(names = {"MID_BATCH", "BEFORE_COMMIT", "AFTER_COMMIT"}) // every sink's stages
    void aContinuousRunThatFailsOnceLosesNothing(Stage stage) throws Exception {
        source.orders("orders", 1, 4001);
        try (var run = pipeline.start(orders().failing(failOnce(stage, 900)))) {
            KitPipeline.await(() -> keys("orders") >= 4000);
            source.orders("orders", 4001, 5001);
            KitPipeline.await(() -> keys("orders") >= 5000);
            quietThenCheck(run, "orders", 5000, true);
        }
        assertThat(dir.resolve("failed-once")).as("the failure happened").exists();
        assertHoldsAfterFailure("orders", 1, 5001);
    }

    /**
     * Passes when a bounded run that fails once (mid-batch, after its pre-commit, after its commit)
     * and is retried by Flink ends with every row, exactly once where the destination promises it.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(names = {"MID_BATCH", "BEFORE_COMMIT", "AFTER_COMMIT"}) // every sink's stages
    void aBoundedRunThatFailsOnceLosesNothing(Stage stage) throws Exception {
        source.orders("orders", 1, 3001);
        var counters = pipeline.once(orders().failing(failOnce(stage, 700)));
        assertThat(dir.resolve("failed-once")).as("the failure happened").exists();
        if (exactlyOnce()) {
            assertThat(written(counters, "orders")).isEqualTo(3000L);
        }
        assertHoldsAfterFailure("orders", 1, 3001);
        assertThat(written(pipeline.once(orders()), "orders") == 0 || !exactlyOnce())
                .as("a run after the retried one finds nothing new")
                .isTrue();
        assertHoldsAfterFailure("orders", 1, 3001);
    }

    /**
     * Passes when a {@code skipprd sync --once} process killed after its pre-commit, or after its
     * commit, and then run again, leaves exactly one copy of each row (each row at least once where
     * the destination promises only that).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(names = {"BEFORE_COMMIT", "AFTER_COMMIT"})
    void aProcessKilledAndRerunLeavesOneCopyOfEachRow(Stage stage) throws Exception {
        source.orders("orders", 1, 2001);
        int killed = pipeline.process("killed", orders(), stage.label());
        assertThat(killed).as(pipeline.err("killed")).isEqualTo(137);
        assertThat(pipeline.err("killed"))
                .contains("skippr: injected failure: " + stage.label() + " #1, halting the JVM");
        if (exactlyOnce()) {
            // a file store may hold a file published by a committer the kill stopped before its
            // record: the next run removes it, the final check below reads the whole folder
            long visible =
                    fixture instanceof FileStoreFixture files
                            ? files.recordedRows(dir, "orders").stream()
                                    .map(row -> row.get("id"))
                                    .distinct()
                                    .count()
                            : keys("orders");
            assertVisibleAfterKill(fixture, stage, visible, 2000);
        }
        source.orders("orders", 2001, 2101);
        int rerun = pipeline.process("rerun", orders(), null);
        assertThat(rerun).as(pipeline.err("rerun")).isZero();
        assertHoldsAfterFailure("orders", 1, 2101);
    }

    /**
     * Passes when a bounded run killed before its commit shows nothing, and one killed right after
     * its first commit shows what that commit made visible: every row where one commit covers the
     * whole run ({@link SinkFixture#commitsARunAtOnce}: a SQL sink's one transaction, an Iceberg
     * sink's one snapshot), else all or nothing (a file sink's run counts once every subtask
     * recorded its commit).
     */
    static void assertVisibleAfterKill(SinkFixture fixture, Stage stage, long visible, long all) {
        List<Long> allowed =
                stage == Stage.BEFORE_COMMIT
                        ? List.of(0L)
                        : fixture.commitsARunAtOnce() ? List.of(all) : List.of(0L, all);
        assertThat(visible)
                .as("rows visible after a kill " + stage.label() + " (" + fixture.kind() + ")")
                .isIn(allowed);
    }

    /**
     * Passes when every value of the type matrix (integers at their limits, numeric with precision,
     * floats with NaN, unicode and control characters, booleans, dates, times, timestamps with and
     * without zone, JSON, UUID, bytes, nulls) reads back as it was, or as the destination's docs
     * say it lands.
     */
    @Test
    void everyTypeRoundTrips() throws Exception {
        TypeMatrix.create(source);
        assertThat(written(pipeline.once(pipeline.table(TypeMatrix.TABLE, null)), "types"))
                .isEqualTo(TypeMatrix.EXPECTED.size());
        List<Map<String, Object>> rows = fixture.rows(dir, TypeMatrix.TABLE);
        Set<Long> ids = new HashSet<>();
        rows.forEach(row -> ids.add(((Number) row.get("id")).longValue()));
        assertThat(ids).containsExactlyInAnyOrderElementsOf(TypeMatrix.EXPECTED.keySet());
        List<String> wrong = wrongValues(fixture, rows);
        assertThat(wrong).as("values that did not round-trip").isEmpty();
    }

    /**
     * The type matrix's values that did not land as they were (or as the fixture's documented
     * difference says), one line each; a JSON column is compared as the document it holds ({@link
     * JsonLines#document}), so bare invalid text never passes for a JSON string.
     */
    static List<String> wrongValues(SinkFixture fixture, List<Map<String, Object>> rows) {
        Map<Long, Map<String, Object>> byId = new HashMap<>();
        for (Map<String, Object> row : rows) {
            byId.put(((Number) row.get("id")).longValue(), row);
        }
        List<String> wrong = new ArrayList<>();
        TypeMatrix.EXPECTED.forEach(
                (id, expected) -> {
                    Map<String, Object> row = byId.getOrDefault(id, Map.of());
                    for (TypeMatrix.Col c : TypeMatrix.COLUMNS) {
                        String want = expected.get(c.name());
                        want = want == null ? null : fixture.landed(c.kind(), want);
                        Object value =
                                c.kind() == DataType.Kind.JSON
                                        ? JsonLines.document(row, c.name())
                                        : row.get(c.name());
                        String got = Canonical.of(c.kind(), value);
                        if (!java.util.Objects.equals(want, got)) {
                            wrong.add(
                                    String.format(
                                            Locale.ROOT,
                                            "row %d, %s %s: expected %s, got %s",
                                            id,
                                            c.name(),
                                            c.kind(),
                                            want,
                                            got));
                        }
                    }
                });
        return wrong;
    }

    /**
     * Passes when {@code merge} upserts on the source key: changed rows replace their earlier
     * versions, new rows are added, and each key is held once.
     */
    @Test
    void mergeUpsertsOnTheSourceKey() throws Exception {
        if (!fixture.writeModes().contains("merge")) {
            assertRefused("merge");
            return;
        }
        source.orders("orders", 1, 1001);
        pipeline.once(orders().mode("merge"));
        source.update("orders", 1, 101, "paid");
        source.orders("orders", 1001, 1101);
        var second = pipeline.once(orders().mode("merge"));
        assertThat(written(second, "orders")).as("changed and new rows").isEqualTo(200L);

        Map<Long, Object> status = new HashMap<>();
        for (Map<String, Object> row : fixture.rows(dir, "orders")) {
            Object previous = status.put(((Number) row.get("id")).longValue(), row.get("status"));
            assertThat(previous).as("key held once: " + row.get("id")).isNull();
        }
        assertThat(status).hasSize(1100);
        assertThat(status.values().stream().filter("paid"::equals).count()).isEqualTo(100);
        assertThat(status.get(50L)).isEqualTo("paid");
        assertThat(status.get(500L)).isEqualTo("new");
        assertThat(status.get(1050L)).isEqualTo("new");
    }

    /**
     * Passes when {@code replace} leaves exactly the source's current rows, and a run whose source
     * fails leaves the destination as the last good run left it, never empty.
     */
    @Test
    void replaceSwapsInTheNewRowsAndASourceFailureLeavesTheOldOnes() throws Exception {
        if (!fixture.writeModes().contains("replace")) {
            assertRefused("replace");
            return;
        }
        KitPipeline.Run replace = pipeline.table("orders", null).mode("replace");
        source.orders("orders", 1, 501);
        pipeline.once(replace);
        source.delete("orders", 251, 501);
        source.orders("orders", 501, 601);
        pipeline.once(replace);
        Set<Long> current = new HashSet<>();
        for (long id = 1; id <= 250; id++) {
            current.add(id);
        }
        for (long id = 501; id <= 600; id++) {
            current.add(id);
        }
        assertThat(keyList("orders"))
                .as("exactly the current rows, once each")
                .hasSize(350)
                .containsExactlyInAnyOrderElementsOf(current);

        source.orders("orders", 601, 701);
        assertThatThrownBy(
                        () ->
                                pipeline.once(
                                        replace.failing(
                                                FailPoint.throwAlways(Stage.MID_BATCH, 50))))
                .as("the run whose source fails fails")
                .hasStackTraceContaining("injected failure: mid-batch #50");
        assertThat(keyList("orders"))
                .as("the last good run's rows, after the failed one")
                .hasSize(350)
                .containsExactlyInAnyOrderElementsOf(current);
    }

    private List<Long> keyList(String stream) throws Exception {
        List<Long> keys = new ArrayList<>();
        for (Map<String, Object> row : fixture.rows(dir, stream)) {
            keys.add(((Number) row.get("id")).longValue());
        }
        return keys;
    }

    private void assertRefused(String mode) throws Exception {
        source.orders("orders", 1, 101);
        assertThatThrownBy(
                        () ->
                                PipelineGraph.build(
                                        KitPipeline.flink(false),
                                        pipeline.request(
                                                pipeline.table("orders", null).mode(mode), true)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipelines.p.write_mode:")
                .hasMessageContaining(
                        (fixture.writeModes().contains("merge")
                                        ? "sinks append or merge; write_mode "
                                        : "sinks only append; write_mode ")
                                + mode
                                + " needs a SQL destination");
        assertThat(keys("orders")).as("nothing was written").isZero();
    }

    /**
     * Passes when a column added at the source mid-run (a new schema version) lands before the rows
     * that use it, and the earlier rows stay as they were.
     */
    @Test
    void aColumnAddedMidRunLandsWithTheRowsThatUseIt() throws Exception {
        source.orders("orders", 1, 1001);
        try (var run = pipeline.start(orders())) {
            KitPipeline.await(() -> keys("orders") >= 1000);
            source.addNoteColumn("orders", 1001, 1201);
            KitPipeline.await(() -> keys("orders") >= 1200);
            quietThenCheck(run, "orders", 1200, false);
        }
        Map<Long, Object> notes = new HashMap<>();
        for (Map<String, Object> row : fixture.rows(dir, "orders")) {
            notes.put(((Number) row.get("id")).longValue(), row.get("note"));
        }
        assertThat(notes.get(1100L)).isEqualTo("note 1100");
        assertThat(notes.get(5L)).isNull();
        assertHolds("orders", 1, 1201);
    }

    /**
     * Passes when a value the destination cannot store becomes a load-stage deadletter (and the
     * other rows land), or, where it can, arrives like any other.
     */
    @Test
    void aValueBeyondTheDestinationsRangeIsLoadedOrDeadlettered() throws Exception {
        source.orders("orders", 1, 201);
        source.extremeTimestamp("orders", 7);
        var counters = pipeline.once(pipeline.table("orders", null));
        if (fixture.storesExtremeTimestamps()) {
            assertThat(counters.get("orders")).containsEntry("written", 200L);
            assertHolds("orders", 1, 201);
        } else {
            assertThat(counters.get("orders"))
                    .containsEntry("written", 199L)
                    .containsEntry("deadlettered", 1L);
            assertThat(fixture.rows(dir, "orders"))
                    .hasSize(199)
                    .noneMatch(row -> ((Number) row.get("id")).longValue() == 7);
            SourceTable.Expected all = source.expected("orders", 1, 201);
            all.rows().remove(7L);
            assertHolds("orders", all, false);
        }
    }

    /**
     * Passes when rows the destination itself refuses (a CHECK constraint a user added to the
     * target) become load-stage deadletters with the destination's words, while the other rows of
     * the run land and its positions move past all of them: 5 refused in 1010, and a third run
     * reads nothing again. Where a destination has no such rules, all 1010 land.
     */
    @Test
    void rowsTheDestinationRefusesBecomeLoadDeadletters() throws Exception {
        source.orders("orders", 1, 11);
        pipeline.once(orders());
        Set<Long> refused = Set.of(20L, 300L, 555L, 777L, 1010L);
        String words = fixture.refuse(dir, "orders", refused);
        source.orders("orders", 11, 1011);
        var counters = pipeline.once(orders().withDeadletters());
        List<Map<String, Object>> rows = fixture.rows(dir, "orders");
        if (words == null) {
            // an at-least-once destination commits no position: its second run reads all 1010
            assertThat(counters.get("orders"))
                    .containsEntry("written", exactlyOnce() ? 1000L : 1010L);
            assertHoldsAfterReruns("orders", 1, 1011);
            assertThat(deadletters()).isEmpty();
            return;
        }
        assertThat(counters.get("orders"))
                .containsEntry("written", 995L)
                .containsEntry("deadlettered", 5L);
        Set<Long> keys = new HashSet<>();
        BigDecimal amounts = BigDecimal.ZERO;
        for (Map<String, Object> row : rows) {
            keys.add(((Number) row.get("id")).longValue());
            amounts = amounts.add(new BigDecimal(String.valueOf(row.get("amount"))));
        }
        assertThat(rows).as("no row twice").hasSize(1005);
        assertThat(keys).hasSize(1005).doesNotContainAnyElementsOf(refused);
        BigDecimal expected = SourceTable.amountSum(1, 1011);
        for (long id : refused) {
            expected = expected.subtract(new BigDecimal("1.25").multiply(BigDecimal.valueOf(id)));
        }
        assertThat(amounts).isEqualByComparingTo(expected);
        List<com.fasterxml.jackson.databind.JsonNode> letters = deadletters();
        assertThat(letters).hasSize(5);
        Set<Long> lettered = new HashSet<>();
        for (var letter : letters) {
            assertThat(letter.path("stage").asText()).isEqualTo("load");
            assertThat(letter.path("stream").asText()).isEqualTo("orders");
            assertThat(letter.path("error_class").asText()).isEqualTo("RefusedByDestination");
            assertThat(letter.path("error_message").asText()).contains(words);
            lettered.add(JSON.readTree(letter.path("payload").asText()).path("id").asLong());
        }
        assertThat(lettered).isEqualTo(refused);

        var again = pipeline.once(orders().withDeadletters());
        assertThat(again.getOrDefault("orders", Map.of()))
                .as("the refused rows are behind the committed position")
                .doesNotContainKey("deadlettered")
                .satisfiesAnyOf(
                        m -> assertThat(m).doesNotContainKey("written"),
                        m -> assertThat(m).containsEntry("written", 0L));
        assertThat(deadletters()).hasSize(5);
        assertThat(fixture.rows(dir, "orders")).hasSize(1005);
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
            new com.fasterxml.jackson.databind.ObjectMapper();

    /** The deadletters the kit's deadletter sink published, read from its folder's files. */
    List<com.fasterxml.jackson.databind.JsonNode> deadletters() throws Exception {
        Path root = dir.resolve(KitPipeline.DEADLETTERS).resolve("skippr_deadletters");
        List<com.fasterxml.jackson.databind.JsonNode> out = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return out;
        }
        try (var files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".jsonl")).toList()) {
                for (String line : Files.readAllLines(file)) {
                    out.add(JSON.readTree(line));
                }
            }
        }
        return out;
    }

    /**
     * Passes when quotes, spaces, unicode and reserved words in names survive, under the names the
     * fixture writes out (not the product's naming code).
     */
    @Test
    void hostileIdentifiersLandUnderTheirNormalisedNames() throws Exception {
        String stream = SinkFixture.HOSTILE_STREAM;
        source.hostile(stream, 1, 51);
        pipeline.once(pipeline.table(stream, null));
        List<Map<String, Object>> rows = fixture.rows(dir, stream);
        assertThat(rows).as("rows under " + fixture.table(stream)).hasSize(50);
        assertThat(rows.get(0))
                .containsKeys(
                        fixture.column("select"),
                        fixture.column("two words"),
                        fixture.column("naïve \"q\""));
        assertThat(rows.stream().map(r -> r.get(fixture.column("naïve \"q\""))))
                .containsOnly("ü'\"");
    }

    /**
     * Passes when a 100-character stream name and column name (longer than PostgreSQL's 63 bytes)
     * land under the names the destination's docs give them, with their values.
     */
    @Test
    void hundredCharacterNamesLandUnderTheirDocumentedNames() throws Exception {
        String stream = SinkFixture.LONG_STREAM;
        String column = SinkFixture.LONG_COLUMN;
        assertThat(stream).hasSize(100);
        assertThat(column).hasSize(100);
        Path in = dir.resolve("in");
        Files.createDirectories(in);
        StringBuilder lines = new StringBuilder();
        for (int i = 1; i <= 20; i++) {
            lines.append("{\"id\": ")
                    .append(i)
                    .append(", \"amount\": ")
                    .append(i * 1.25)
                    .append(", \"")
                    .append(column)
                    .append("\": \"v")
                    .append(i)
                    .append("\"}\n");
        }
        Files.writeString(in.resolve("long.jsonl"), lines);
        pipeline.once(
                pipeline.sourceYaml(
                        "    LocalFile: {path: in/*.jsonl, format: jsonl, stream: "
                                + stream
                                + "}\n"));
        List<Map<String, Object>> rows = fixture.rows(dir, stream);
        assertThat(rows).as("rows under " + fixture.table(stream)).hasSize(20);
        assertThat(rows.stream().map(r -> String.valueOf(r.get(fixture.column(column)))))
                .as("the long column, under " + fixture.column(column))
                .containsExactlyInAnyOrderElementsOf(
                        java.util.stream.IntStream.rangeClosed(1, 20).mapToObj(i -> "v" + i)
                                ::iterator);
    }

    /**
     * Passes when what lands is what the destination's page says under "How data lands": each row
     * carries its deterministic {@code _skippr_id} (32 hex digits) and {@code _skippr_synced_at},
     * in the table its page names.
     */
    @Test
    void dataLandsAsItsPageSays() throws Exception {
        Path page =
                Path.of(
                        "..",
                        "docs",
                        "connectors",
                        fixture.kind().toLowerCase(Locale.ROOT) + ".md");
        assertThat(Files.readString(page))
                .containsPattern("(?m)^#+ How data lands$")
                .contains("_skippr_id")
                .contains("_skippr_synced_at");
        source.orders("orders", 1, 101);
        pipeline.once(pipeline.table("orders", null));
        Map<Long, Object> ids = new HashMap<>();
        for (Map<String, Object> row : fixture.rows(dir, "orders")) {
            assertThat(String.valueOf(row.get("_skippr_id"))).matches("[0-9a-f]{32}");
            assertThat(row.get("_skippr_synced_at")).isNotNull();
            ids.put(((Number) row.get("id")).longValue(), row.get("_skippr_id"));
        }
        assertThat(ids).hasSize(100);
        if (fixture instanceof FileStoreFixture files) {
            assertAStrayFileFailsTheRead(files);
        }
    }

    /**
     * A mutant of a file destination: a copy of a committed file under another final name of the
     * stream's folder (what a failed cleanup of files no record lists leaves), which a user's glob
     * reads twice. The kit's read must fail, naming it, although the commit log is intact.
     */
    private void assertAStrayFileFailsTheRead(FileStoreFixture files) throws Exception {
        String key = files.files(dir, "orders").get(0);
        int slash = key.lastIndexOf('/');
        String stray =
                key.substring(0, slash + 1)
                        + "p-999999-000-000000-000000"
                        + key.substring(key.indexOf('.', slash));
        try (FileStore store = files.store(dir)) {
            store.put(stray, store.get(key));
        }
        assertThatThrownBy(() -> assertHolds("orders", 1, 101))
                .isInstanceOf(FileStoreFixture.UnrecordedFiles.class)
                .hasMessageContaining("files under final names that no commit record lists")
                .hasMessageContaining(stray);
    }

    /**
     * Passes when rows whose transactions commit after a bounded run read rows with higher cursor
     * values arrive with the next run, and only once: one transaction had written when the run took
     * its snapshot, the other had begun (as one that took {@code now()} or a sequence value does)
     * but wrote only after. The run's position keeps the transactions its snapshot could not see
     * and the ids given out after it while those ran, and the next run reads their rows by {@code
     * xmin}.
     */
    @Test
    void aRowCommittedLateIsLoadedByTheNextRunOnce() throws Exception {
        source.orders("orders", 1, 1000);
        try (java.sql.Connection late = source.openInsert("orders", 1000);
                java.sql.Connection begun = source.openTransaction()) {
            source.orders("orders", 1002, 1003); // commits first, with a higher cursor value
            pipeline.once(orders());
            assertThat(keys("orders")).as("rows of the first run").isEqualTo(1000);
            source.insertIn(begun, "orders", 1001); // its id comes after the run's snapshot
            begun.commit();
            late.commit();
        }

        pipeline.once(orders());
        assertHoldsAfterReruns("orders", 1, 1003);
        long third = written(pipeline.once(orders()), "orders");
        if (exactlyOnce()) {
            assertThat(third).as("rows sent by a third run").isZero();
        }
        assertHoldsAfterReruns("orders", 1, 1003);
    }

    /**
     * Passes when a continuous run loads rows whose transactions commit after a poll read rows with
     * higher cursor values, once: one had written before the poll's snapshot, the other wrote only
     * after it. The poll's position keeps the transactions it could not see and the ids given out
     * after it while those ran, and the table's next polls read their rows by {@code xmin}.
     */
    @Test
    void aContinuousRunLoadsARowCommittedLateOnce() throws Exception {
        source.orders("orders", 1, 1000);
        try (var run = pipeline.start(orders())) {
            KitPipeline.await(() -> keys("orders") >= 999);
            try (java.sql.Connection late = source.openInsert("orders", 1000);
                    java.sql.Connection begun = source.openTransaction()) {
                source.orders("orders", 1002, 1003);
                KitPipeline.await(() -> keys("orders") >= 1000);
                source.insertIn(begun, "orders", 1001);
                begun.commit();
                late.commit();
            }
            KitPipeline.await(() -> keys("orders") >= 1002);
            quietThenCheck(run, "orders", 1002, false);
        }
        assertHolds("orders", 1, 1003);
    }

    /**
     * Passes when a {@code --once} run after a continuous run, cancelled while it read, loads
     * exactly the rows the continuous run did not commit: continuous runs commit their read
     * positions with their rows (whole reads, and reads in part up to their last row), and a run
     * starts from all of them (the Iceberg sinks keep their union in the table's properties,
     * compacted by the source). Before, every destination refused the run (and earlier still, it
     * appended the continuous run's rows a second time); the Iceberg sinks refused it until they
     * kept continuous positions.
     */
    @Test
    void aOnceRunAfterAContinuousRunLoadsWhatItDidNotCommitOnce() throws Exception {
        source.orders("orders", 1, 501);
        pipeline.once(orders());
        source.orders("orders", 501, 6001);
        try (var run = pipeline.start(orders())) {
            KitPipeline.await(() -> keys("orders") >= 1000); // cancelled while it reads
        }
        source.orders("orders", 6001, 6101);
        pipeline.once(orders());
        assertHoldsAfterReruns("orders", 1, 6101);
        long third = written(pipeline.once(orders()), "orders");
        if (exactlyOnce()) {
            assertThat(third).as("rows sent by a third run").isZero();
        }
        assertHoldsAfterReruns("orders", 1, 6101);
    }

    /**
     * Passes when files are read once across bounded runs: a rerun over unchanged files adds
     * nothing, a new file is read, and a file that grew is read from where the last run ended.
     */
    @Test
    void filesAreReadOnceAndAGrownFileFromWhereTheLastRunEnded() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        orderLines(in.resolve("a.jsonl"), 1, 501);
        orderLines(in.resolve("b.jsonl"), 501, 1001);
        KitPipeline.Run files =
                pipeline.sourceYaml(
                        "    LocalFile:\n      path: " + in + "/*.jsonl\n      stream: orders\n");

        pipeline.once(files);
        assertHolds("orders", SourceTable.orderLines(1, 1001), false);
        long second = written(pipeline.once(files), "orders");
        assertHolds("orders", SourceTable.orderLines(1, 1001), !exactlyOnce());
        orderLines(in.resolve("b.jsonl"), 1001, 1101);
        orderLines(in.resolve("c.jsonl"), 1101, 1201);
        long third = written(pipeline.once(files), "orders");

        assertHolds("orders", SourceTable.orderLines(1, 1201), !exactlyOnce());
        if (exactlyOnce()) {
            assertThat(second).as("rows sent by a rerun over unchanged files").isZero();
            assertThat(third).as("rows sent for the grown and the new file").isEqualTo(200);
        }
    }

    /**
     * Appends order rows {@code from..to-1} to a JSONL file, as the kit's source table has them.
     */
    private static void orderLines(Path file, long from, long to) throws Exception {
        StringBuilder lines = new StringBuilder();
        for (long i = from; i < to; i++) {
            lines.append(
                    String.format(
                            Locale.ROOT,
                            "{\"id\": %d, \"customer_id\": %d, \"amount\": %s, \"status\":"
                                    + " \"new\"}%n",
                            i,
                            i % 97,
                            new BigDecimal("1.25")
                                    .multiply(BigDecimal.valueOf(i))
                                    .toPlainString()));
        }
        Files.writeString(
                file,
                lines,
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
    }
}
