package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.Config;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guards savepoint compatibility: a savepoint maps each operator's state to the operator's uid, so
 * a job whose operators keep their uids restores a savepoint of an earlier version, and one that
 * renames an operator does not. The uids the continuous job graph has for a set of pipelines are
 * pinned in {@code operator-uids.txt}; every operator of the StreamGraph must have one set
 * explicitly (a generated one changes with the graph's shape). Needs the PostgreSQL server of
 * {@code scripts/test}: the Postgres sink reads its committed positions while the graph is built.
 */
class OperatorUidsITCase {
    private static final String PINNED = "operator-uids.txt";

    @TempDir Path dir;
    private TestPostgres pg;

    @BeforeEach
    void source() throws Exception {
        pg = new TestPostgres("skippr_uids_");
        pg.exec(
                "CREATE TABLE orders (id bigint PRIMARY KEY, amount numeric(12,2),"
                        + " updated_at timestamptz NOT NULL)");
    }

    @AfterEach
    void drop() throws Exception {
        pg.close();
    }

    @Test
    void everyOperatorOfAContinuousJobHasAnExplicitUid() throws Exception {
        for (Map.Entry<String, StreamGraph> pipeline : graphs().entrySet()) {
            for (StreamNode node : pipeline.getValue().getStreamNodes()) {
                assertThat(node.getTransformationUID())
                        .as(
                                "uid of operator '%s' in pipeline %s: without an explicit uid"
                                        + " Flink derives one from the graph's shape, and any"
                                        + " change to the graph strands its state in savepoints",
                                node.getOperatorName(), pipeline.getKey())
                        .isNotBlank();
            }
        }
    }

    @Test
    void operatorUidsAreThePinnedOnes() throws Exception {
        List<String> actual = new ArrayList<>();
        for (Map.Entry<String, StreamGraph> pipeline : graphs().entrySet()) {
            pipeline.getValue().getStreamNodes().stream()
                    .map(StreamNode::getTransformationUID)
                    .sorted()
                    .forEach(uid -> actual.add(pipeline.getKey() + " " + uid));
        }
        assertThat(actual)
                .as(
                        "The operator uids of the job graph changed. A savepoint finds each"
                                + " operator's state by its uid: with a renamed uid, `flink run -s`"
                                + " of a savepoint taken by the previous version fails (or, with"
                                + " --allowNonRestoredState, drops that state: source positions,"
                                + " staged rows). Keep the old uids. If the change is intended,"
                                + " update src/test/resources/%s to the list below and say in the"
                                + " release notes that savepoints of earlier versions do not"
                                + " restore. The uids now:%n%s%n",
                        PINNED, String.join("\n", actual))
                .containsExactlyInAnyOrderElementsOf(pinned());
    }

    /** Continuous job graphs of pipelines covering each kind of operator the graph builder adds. */
    private Map<String, StreamGraph> graphs() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        Files.writeString(in.resolve("a.csv"), "id,amount\n1,2.5\n");
        Path file = dir.resolve("skippr.yml");
        Files.writeString(
                file,
                """
                pipelines:
                  orders:
                    data_source: data_sources.app_db
                    data_sink: data_sinks.warehouse
                    write_mode: merge
                  files:
                    data_source: data_sources.csv
                    data_sink: data_sinks.lake
                    deadletter_sink: deadletter_sinks.rejects
                  wal:
                    data_source: data_sources.csv
                data_sources:
                  app_db:
                %s
                  csv:
                    LocalFile: {path: '%s/*.csv', format: csv}
                data_sinks:
                  warehouse:
                    Postgres:
                      host: %s
                      port: %s
                      user: %s
                      password: ${PG_PASSWORD}
                      database: %s
                      schema: %s_dst
                      sslmode: disable
                  lake:
                    LocalFile: {path: '%s/out', format: parquet}
                deadletter_sinks:
                  rejects:
                    LocalFile: {path: '%s/rejects', format: jsonl}
                """
                        .formatted(
                                pg.sourceYaml("orders", "updated_at").stripTrailing(),
                                in,
                                TestPostgres.env("SKIPPR_TEST_PG_HOST"),
                                TestPostgres.env("SKIPPR_TEST_PG_PORT"),
                                TestPostgres.env("SKIPPR_TEST_PG_USER"),
                                TestPostgres.env("SKIPPR_TEST_PG_DATABASE"),
                                pg.schema,
                                dir,
                                dir));
        Config config = Config.load(file);
        Map<String, StreamGraph> graphs = new java.util.TreeMap<>();
        for (String pipeline : List.of("orders", "files", "wal")) {
            StreamExecutionEnvironment env = TestFlink.env(true);
            Map<String, String> vars = new HashMap<>(TestPostgres.passwordEnv());
            PipelineGraph.build(
                    env,
                    new PipelineGraph.Request(
                            config.getPipeline(pipeline),
                            false,
                            vars,
                            dir.resolve("state").resolve(pipeline)));
            graphs.put(pipeline, env.getStreamGraph());
        }
        return graphs;
    }

    private static List<String> pinned() throws IOException {
        try (InputStream in = OperatorUidsITCase.class.getResourceAsStream("/" + PINNED)) {
            assertThat(in).as("src/test/resources/%s", PINNED).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                    .toList();
        }
    }
}
