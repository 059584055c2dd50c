package io.skippr.sources.localfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SourceContext;
import io.skippr.core.spi.SourceFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The glob, format inference and its errors, stream naming. */
class FormatAndGlobTest {
    @TempDir Path dir;

    @Test
    void formatFromTheGlobOrTheFiles() throws IOException {
        assertThat(LocalFileSource.of("in/*.csv", null, "s", true, dir).format())
                .isEqualTo(FileFormat.CSV);
        assertThat(LocalFileSource.of("in/**/*.NDJSON", null, "s", true, dir).format())
                .isEqualTo(FileFormat.JSONL);
        assertThat(LocalFileSource.of("in/x.parquet", null, "s", true, dir).format())
                .isEqualTo(FileFormat.PARQUET);
        assertThat(LocalFileSource.of("in/*", "jsonl", "s", true, dir).format())
                .isEqualTo(FileFormat.JSONL);
        TestFiles.write(dir.resolve("in/a.parquet"), "");
        TestFiles.write(dir.resolve("in/b.parquet"), "");
        TestFiles.write(dir.resolve("in/.c.tmp"), ""); // hidden: never matched
        assertThat(LocalFileSource.of("in/*", null, "s", true, dir).format())
                .isEqualTo(FileFormat.PARQUET);
        assertThat(LocalFileSource.of("in", null, "s", true, dir).format())
                .isEqualTo(FileFormat.PARQUET);
    }

    @Test
    void formatThatCannotBeInferredFailsClearly() throws IOException {
        assertThatThrownBy(() -> LocalFileSource.of("in/*", null, "orders", true, dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cannot infer the format of LocalFile source orders: "
                                + dir.resolve("in/*")
                                + " has no parquet, jsonl or csv extension and matches no file;"
                                + " set format");
        TestFiles.write(dir.resolve("in/a.csv"), "a\n1\n");
        TestFiles.write(dir.resolve("in/b.jsonl"), "{}\n");
        assertThatThrownBy(() -> LocalFileSource.of("in/*", null, "orders", true, dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cannot infer the format of LocalFile source orders: the files disagree ("
                                + dir.resolve("in/a.csv")
                                + " is csv, "
                                + dir.resolve("in/b.jsonl")
                                + " is jsonl); set format or narrow path");
        TestFiles.write(dir.resolve("txt/a.txt"), "a\n");
        assertThatThrownBy(() -> LocalFileSource.of("txt/*", null, "orders", true, dir))
                .hasMessage(
                        "Cannot infer the format of LocalFile source orders: "
                                + dir.resolve("txt/a.txt")
                                + " has no parquet, jsonl or csv extension; set format");
        assertThatThrownBy(() -> LocalFileSource.of("in/*", "xml", "orders", true, dir))
                .hasMessage("Unknown LocalFile format 'xml': use parquet, jsonl or csv");
    }

    @Test
    void globMatchesInPathOrder() throws IOException {
        for (String f :
                List.of(
                        "d/b.csv",
                        "d/a.csv",
                        "d/sub/c.csv",
                        "d/sub/deep/e.csv",
                        "d/x.json",
                        "d/.hidden/f.csv",
                        "d/.g.csv")) {
            TestFiles.write(dir.resolve(f), "a\n");
        }
        assertThat(FileGlob.resolve("d/*.csv", dir).match())
                .containsExactly(dir.resolve("d/a.csv"), dir.resolve("d/b.csv"));
        assertThat(FileGlob.resolve("d/**/*.csv", dir).match())
                .containsExactly(
                        dir.resolve("d/a.csv"),
                        dir.resolve("d/b.csv"),
                        dir.resolve("d/sub/c.csv"),
                        dir.resolve("d/sub/deep/e.csv"));
        assertThat(FileGlob.resolve("d/*/*.csv", dir).match())
                .containsExactly(dir.resolve("d/sub/c.csv"));
        assertThat(FileGlob.resolve("d/{a,x}.*", dir).match())
                .containsExactly(dir.resolve("d/a.csv"), dir.resolve("d/x.json"));
        assertThat(FileGlob.resolve("nowhere/*.csv", dir).match()).isEmpty();
        assertThat(FileGlob.resolve(dir.resolve("d/a.csv").toString(), Path.of("/other")).match())
                .containsExactly(dir.resolve("d/a.csv"));
    }

    @Test
    void factoryIsRegisteredAndNamesTheStream() {
        SourceFactory factory =
                ServiceLoader.load(SourceFactory.class).stream()
                        .map(ServiceLoader.Provider::get)
                        .filter(f -> f.kind().equals("LocalFile"))
                        .findFirst()
                        .orElseThrow();
        assertThat(factory).isInstanceOf(LocalFileSourceFactory.class);
        LocalFileSource byEntry =
                (LocalFileSource)
                        factory.create(
                                new SourceContext(
                                        "p",
                                        "orders",
                                        settings(Map.of("path", "data/*.csv")),
                                        true,
                                        Map.of()));
        assertThat(byEntry.stream()).isEqualTo("orders");
        assertThat(byEntry.path())
                .isEqualTo(Path.of("data/*.csv").toAbsolutePath().normalize().toString());
        LocalFileSource renamed =
                (LocalFileSource)
                        factory.create(
                                new SourceContext(
                                        "p",
                                        "orders",
                                        settings(Map.of("path", "/x/*.jsonl", "stream", "sales")),
                                        false,
                                        Map.of()));
        assertThat(renamed.stream()).isEqualTo("sales");
        assertThat(renamed.getBoundedness())
                .isEqualTo(org.apache.flink.api.connector.source.Boundedness.CONTINUOUS_UNBOUNDED);
    }

    private static ResolvedSettings settings(Map<String, Object> values) {
        return new ResolvedSettings(null, values);
    }
}
