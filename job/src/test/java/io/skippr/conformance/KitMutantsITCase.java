package io.skippr.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.catalog.Guarantee;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's continuous checks shown to catch the faults they are for (issue 13, points 8 and 9), on
 * LocalFile JSONL: a duplicate that lands only after the expected count was reached fails the quiet
 * period's check; a restore that lost its checkpoint and the positions committed with the data (the
 * rescaling test's run started without either) fails the same check with the rows it read again.
 */
class KitMutantsITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir Path dir;
    private SourceTable source;
    private LateDuplicate fixture;
    private KitPipeline pipeline;

    @BeforeEach
    void open(@InjectMiniCluster MiniCluster cluster) throws Exception {
        source = new SourceTable();
        fixture = new LateDuplicate(new LocalFileFixture("jsonl"));
        pipeline = new KitPipeline(dir, fixture, source, cluster);
    }

    @AfterEach
    void close() throws Exception {
        source.close();
    }

    @Test
    void aDuplicateThatLandsAfterTheCountWasReachedFailsTheQuietPeriodsCheck() throws Exception {
        source.orders("orders", 1, 101);
        try (var run = pipeline.start(pipeline.table("orders", "updated_at"))) {
            KitPipeline.await(() -> fixture.rows(dir, "orders").size() >= 100);
            fixture.late = true; // from now on the destination shows one row twice
            assertThatThrownBy(
                            () ->
                                    SinkConformanceKit.quietThenCheck(
                                            run, fixture, dir, "orders", 100, false))
                    .hasMessageContaining("rows held after a quiet period of two checkpoints")
                    .hasMessageContaining("101");
        }
    }

    @Test
    void aRestoreThatLostItsCheckpointFailsTheRescalingTestsCheck() throws Exception {
        source.orders("orders", 1, 301);
        try (var run = pipeline.start(pipeline.table("orders", "updated_at"), 2, null)) {
            KitPipeline.await(() -> fixture.rows(dir, "orders").size() >= 300);
        }
        source.orders("orders", 301, 601);
        // the mutant: the run at parallelism 1 starts without the checkpoint it should restore,
        // and the commit records keep no positions (as an earlier Skippr's): it reads all again
        forgetCommittedPositions();
        try (var run = pipeline.start(pipeline.table("orders", "updated_at"), 1, null)) {
            KitPipeline.await(() -> fixture.rows(dir, "orders").size() >= 600);
            assertThatThrownBy(
                            () ->
                                    SinkConformanceKit.quietThenCheck(
                                            run, fixture, dir, "orders", 600, false))
                    .hasMessageContaining("rows held after a quiet period of two checkpoints");
        }
    }

    /** Empties the positions of the LocalFile sink's commit records. */
    private void forgetCommittedPositions() throws Exception {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        List<Path> records;
        try (var files = Files.walk(dir)) {
            records =
                    files.filter(p -> p.toString().contains("/_skippr/commits/"))
                            .filter(p -> p.toString().endsWith(".json"))
                            .toList();
        }
        assertThat(records).isNotEmpty();
        for (Path record : records) {
            var doc =
                    (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(record.toFile());
            doc.putObject("positions");
            Files.write(record, json.writeValueAsBytes(doc));
        }
    }

    /** A destination that, once {@link #late} is set, shows its first row twice. */
    private static final class LateDuplicate implements SinkFixture {
        private final SinkFixture real;
        volatile boolean late;

        LateDuplicate(SinkFixture real) {
            this.real = real;
        }

        @Override
        public String kind() {
            return real.kind();
        }

        @Override
        public Guarantee guarantee() {
            return real.guarantee();
        }

        @Override
        public String sinkYaml(Path dir) throws Exception {
            return real.sinkYaml(dir);
        }

        @Override
        public List<Map<String, Object>> rows(Path dir, String stream) throws Exception {
            List<Map<String, Object>> rows = new ArrayList<>(real.rows(dir, stream));
            if (late && !rows.isEmpty()) {
                rows.add(rows.get(0));
            }
            return rows;
        }
    }
}
