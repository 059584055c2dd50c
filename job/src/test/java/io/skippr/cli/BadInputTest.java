package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad-input corpus: each case is one user mistake, in skippr.yml or on the command line. Each
 * must exit 2 and print the exact message (with file:line:column and YAML path where there is one),
 * print no stack trace, never show a secret, and leave skippr.yml untouched when {@code connect}
 * refuses.
 */
class BadInputTest {
    private static final String FILE = "skippr.yml";

    @TempDir Path dir;
    private FileSystem own;

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void isReportedClearly(Case c) throws IOException {
        check(c, searchesForItsFile(c) ? ownFolder() : dir);
    }

    /**
     * Whether the case has no skippr.yml and names none (no {@code --config}, no {@code
     * $SKIPPR_CONFIG}): then the CLI searches the folder it runs in and every parent folder, so the
     * case runs in {@link #ownFolder}, where nothing above can answer it.
     */
    private static boolean searchesForItsFile(Case c) {
        return c.yaml() == null
                && !c.args().contains("--config")
                && !c.env().containsKey("SKIPPR_CONFIG");
    }

    /**
     * An empty folder that no skippr.yml sits above, wherever the test runs: the root folder of a
     * file system of its own (an empty zip file system), instead of a temporary folder whose
     * parents this test does not control.
     */
    private Path ownFolder() throws IOException {
        own = FileSystems.newFileSystem(dir.resolve("own.zip"), Map.of("create", "true"));
        return Files.createDirectories(own.getPath("/work"));
    }

    @AfterEach
    void closeOwnFolder() throws IOException {
        if (own != null) {
            own.close();
        }
    }

    /**
     * Why the case that finds no skippr.yml runs in a folder of its own: in a folder below one that
     * holds a skippr.yml, the CLI reads that file, and the case's check fails.
     */
    @Test
    void aSkipprYmlInAParentFolderWouldAnswerTheCaseThatFindsNone() throws IOException {
        Case c =
                cases().filter(BadInputTest::searchesForItsFile)
                        .filter(k -> k.name().contains("no skippr.yml here"))
                        .findFirst()
                        .orElseThrow();
        Files.writeString(dir.resolve(FILE), "pipelines:\n  orders: {}\n");
        Path below = Files.createDirectories(dir.resolve("below"));
        assertThatThrownBy(() -> check(c, below))
                .as("run below a folder that holds a skippr.yml")
                .isInstanceOf(AssertionError.class);
        check(c, ownFolder());
    }

    /** Runs the case in {@code cwd} and checks everything it printed and left. */
    private void check(Case c, Path cwd) throws IOException {
        Path file = cwd.resolve(FILE);
        if (c.yaml() != null) {
            Files.writeString(file, c.yaml(), StandardCharsets.UTF_8);
        }

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit =
                Skipprd.run(
                        c.args().toArray(String[]::new),
                        cwd,
                        c.env(),
                        new PrintWriter(out, true),
                        new PrintWriter(err, true));
        String printed = "exit " + exit + "\n--- out:\n" + out + "--- err:\n" + err;

        assertThat(exit).as(printed).isEqualTo(c.exit());
        for (String fragment : c.expected()) {
            assertThat(err.toString()).as(printed).contains(fragment);
        }
        assertThat(errorLines(err.toString())).as(printed).isEqualTo(c.errors());
        assertThat(out + "" + err)
                .as("no stack trace: " + printed)
                .doesNotContain("\tat ")
                .doesNotContain("Exception:")
                .doesNotContain("Exception in");
        for (String secret : c.secrets()) {
            assertThat(out.toString()).as("secret in out").doesNotContain(secret);
            assertThat(err.toString()).as("secret in err").doesNotContain(secret);
            if (c.yaml() == null || !c.yaml().contains(secret)) {
                assertThat(file)
                        .as("secret written to the file")
                        .satisfiesAnyOf(
                                f -> assertThat(f).doesNotExist(),
                                f -> assertThat(Files.readString(f)).doesNotContain(secret));
            }
        }
        if (!c.args().isEmpty() && c.args().get(0).equals("connect")) {
            if (c.yaml() == null) {
                assertThat(file).as("connect created a file").doesNotExist();
            } else {
                assertThat(Files.readString(file))
                        .as("connect changed the file")
                        .isEqualTo(c.yaml());
            }
            try (Stream<Path> left = Files.list(cwd)) {
                assertThat(left.map(p -> p.getFileName().toString()))
                        .as("no temporary file left behind")
                        .allMatch(name -> name.equals(FILE));
            }
        }
    }

    /** Was a crash (UnsupportedOperationException, exit 1): snakeyaml's comment-only node. */
    @Test
    void connectIntoAFileOfOnlyCommentsKeepsTheComments() throws IOException {
        Path file = dir.resolve(FILE);
        Files.writeString(file, "# our pipelines\n\n# owned by the data team\n");
        StringWriter err = new StringWriter();
        int exit =
                Skipprd.run(
                        new String[] {
                            "connect",
                            "data-source",
                            "postgres",
                            "--pipeline",
                            "orders",
                            "--name",
                            "app_db",
                            "--host",
                            "db.internal",
                            "--user",
                            "skippr_reader",
                            "--database",
                            "app"
                        },
                        dir,
                        Map.of(),
                        new PrintWriter(new StringWriter(), true),
                        new PrintWriter(err, true));
        assertThat(exit).as(err.toString()).isZero();
        assertThat(Files.readString(file))
                .startsWith("# our pipelines\n\n# owned by the data team\npipelines:\n")
                .contains("data_source: data_sources.app_db");
    }

    @Test
    void aFileThatIsNotUtf8SaysSo() throws IOException {
        Path file = dir.resolve(FILE);
        Files.write(file, new byte[] {'p', 'i', 'p', 'e', 's', ':', ' ', (byte) 0xff, '\n'});
        StringWriter err = new StringWriter();
        int exit =
                Skipprd.run(
                        new String[] {"validate"},
                        dir,
                        Map.of(),
                        new PrintWriter(new StringWriter(), true),
                        new PrintWriter(err, true));
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
                .isEqualTo("error: " + file + ": the file is not valid UTF-8; save it as UTF-8\n");
    }

    /** Was "every null the pipelines use": picocli read ${VAR} in the help as a variable. */
    @Test
    void validateHelpShowsTheReferenceSyntax() {
        StringWriter out = new StringWriter();
        Skipprd.run(
                new String[] {"validate", "--help"},
                dir,
                Map.of(),
                new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true));
        assertThat(out.toString().replaceAll("\\s+", " "))
                .contains("every ${VAR} the pipelines use is set");
    }

    private static long errorLines(String err) {
        return err.lines().filter(l -> l.startsWith("error: ")).count();
    }

    // ---- the corpus -------------------------------------------------------------------------

    private static final String SOURCE =
            """
            data_sources:
              app_db:
                Postgres:
                  host: db.internal
                  user: skippr_reader
                  database: app
            """;

    /** Lines 1-5: the orders pipeline, reading app_db and writing warehouse. */
    private static final String PIPELINE =
            """
            pipelines:
              orders:
                data_source: data_sources.app_db
                data_sink: data_sinks.warehouse

            """;

    /** PIPELINE + SOURCE: lines 1-11; a data_sinks section starts at line 12. */
    private static final String HEAD = PIPELINE + SOURCE;

    /** A file whose pipeline has a source and no sink yet (lines 1-10). */
    private static final String NO_SINK =
            """
            pipelines:
              orders:
                data_source: data_sources.app_db

            """
                    + SOURCE;

    private static final String WAREHOUSE =
            """
            data_sinks:
              warehouse:
                Postgres:
                  host: warehouse.internal
                  user: skippr_loader
                  database: analytics
            """;

    static Stream<Case> cases() {
        List<Case> all = new ArrayList<>();
        yamlSyntax(all);
        fileShape(all);
        sectionsAndKinds(all);
        fields(all);
        environmentReferences(all);
        references(all);
        pipelines(all);
        duplicatesAndNames(all);
        schemaSinks(all);
        validateCommand(all);
        connectCommand(all);
        commandLine(all);
        return all.stream();
    }

    private static void yamlSyntax(List<Case> all) {
        all.add(
                yaml(
                                "YAML: a key indented deeper than its siblings",
                                """
                                pipelines:
                                  orders:
                                   data_source: data_sources.app_db
                                    data_sink: data_sinks.warehouse
                                """)
                        .expect(
                                "skippr.yml:4:5: invalid YAML: bad indentation: this line is"
                                        + " indented to column 5, which lines up with no key above"
                                        + " it (the keys of the enclosing mapping start at column"
                                        + " 4, from line 3)"));
        all.add(
                yaml(
                                "YAML: a field indented between two levels",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            Postgres:
                                              host: warehouse.internal
                                             user: skippr_loader
                                        """)
                        .expect(
                                "skippr.yml:16:6: invalid YAML: bad indentation: this line is"
                                        + " indented to column 6, which lines up with no key above"
                                        + " it (the keys of the enclosing mapping start at column"
                                        + " 5, from line 14)"));
        all.add(
                yaml(
                                "YAML: an unclosed quote is reported where it opens",
                                """
                                pipelines:
                                  orders:
                                    data_source: "data_sources.app_db
                                    data_sink: data_sinks.warehouse
                                """)
                        .expect(
                                "skippr.yml:3:18: invalid YAML: the quoted value that starts here"
                                        + " is never closed; add the closing quote"));
        all.add(
                yaml(
                                "YAML: an unclosed quote in a password does not echo it",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            Postgres:
                                              host: warehouse.internal
                                              password: 'hunter2
                                              database: analytics
                                        """)
                        .expect(
                                "skippr.yml:16:17: invalid YAML: the quoted value that starts here"
                                        + " is never closed; add the closing quote")
                        .secret("hunter2"));
        all.add(
                yaml(
                                "YAML: tab indentation",
                                "pipelines:\n\torders:\n    data_source: data_sources.app_db\n")
                        .expect(
                                "skippr.yml:2:1: invalid YAML: a tab character; indent with"
                                        + " spaces, not tabs"));
        all.add(
                yaml(
                                "YAML: an unquoted value containing ': '",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            Postgres:
                                              host: warehouse.internal: 5432
                                        """)
                        .expect(
                                "skippr.yml:15:31: invalid YAML: unexpected ':'; check the"
                                        + " indentation of this line, or quote a value that"
                                        + " contains ': '"));
        all.add(
                yaml(
                                "YAML: an alias to an anchor that does not exist",
                                HEAD + "data_sinks:\n  warehouse: *postgres\n")
                        .expect("skippr.yml:13:14: invalid YAML: found undefined alias postgres"));
        all.add(
                yaml(
                                "YAML: a key among list items",
                                """
                                data_sources:
                                  app_db:
                                    Postgres:
                                      tables:
                                        - orders
                                        schema: public
                                """)
                        .expect(
                                "skippr.yml:6:9: invalid YAML: expected a list item starting with"
                                        + " '- ', found a key; a list and a mapping cannot share"
                                        + " one level (the list starts at line 5)"));
    }

    private static void fileShape(List<Case> all) {
        all.add(
                yaml("file: a section that is a list", HEAD + "data_sinks: []\n")
                        .expect(
                                "skippr.yml:12:13: data_sinks: expected a mapping of data sink"
                                        + " names to entries, found a list",
                                "skippr.yml:4:16: pipelines.orders.data_sink:"
                                        + " 'data_sinks.warehouse' is not defined; data_sinks has"
                                        + " no entries")
                        .errorCount(2));
        all.add(
                yaml(
                                "file: a pipeline that is a string",
                                "pipelines:\n  orders: data_sources.app_db\n\n" + SOURCE)
                        .expect(
                                "skippr.yml:2:11: pipelines.orders: expected a mapping with"
                                        + " data_source (and optionally data_sink, deadletter_sink,"
                                        + " write_mode, soft_deletes), found 'data_sources.app_db'"));
        String empty =
                "skippr.yml: the file is empty; expected the sections pipelines and data_sources"
                        + " (and optionally data_sinks, schema_sinks, deadletter_sinks)";
        all.add(yaml("file: empty", "").expect(empty));
        all.add(yaml("file: only blank lines", "\n   \n\n").expect(empty));
        all.add(
                yaml("file: only comments", "# our pipelines\n\n# TODO: add the warehouse\n")
                        .expect(empty));
        all.add(yaml("file: only a document marker", "---\n").expect(empty));
        all.add(
                yaml("file: a list at the top level", "- pipelines\n- data_sources\n")
                        .expect(
                                "skippr.yml:1:1: expected a mapping of sections (pipelines,"
                                        + " data_sources, ...), found a list"));
        all.add(
                yaml("file: a plain string", "data_sinks\n")
                        .expect(
                                "skippr.yml:1:1: expected a mapping of sections (pipelines,"
                                        + " data_sources, ...), found 'data_sinks'"));
    }

    private static void sectionsAndKinds(List<Case> all) {
        all.add(
                yaml(
                                "section: data_sink instead of data_sinks",
                                HEAD + WAREHOUSE.replace("data_sinks:", "data_sink:"))
                        .expect(
                                "skippr.yml:12:1: data_sink: unknown section; expected one of"
                                        + " pipelines, data_sources, data_sinks, schema_sinks,"
                                        + " deadletter_sinks; did you mean 'data_sinks'?",
                                "skippr.yml:4:16: pipelines.orders.data_sink:"
                                        + " 'data_sinks.warehouse' is not defined; data_sinks has"
                                        + " no entries")
                        .errorCount(2));
        all.add(
                yaml("kind: Postgress", HEAD + WAREHOUSE.replace("Postgres:", "Postgress:"))
                        .expect(
                                "skippr.yml:14:5: data_sinks.warehouse.Postgress: unknown data"
                                        + " sink kind 'Postgress'; did you mean 'Postgres'?"));
        all.add(
                yaml("kind: lowercase postgres", HEAD + WAREHOUSE.replace("Postgres:", "postgres:"))
                        .expect(
                                "skippr.yml:14:5: data_sinks.warehouse.postgres: unknown data sink"
                                        + " kind 'postgres'; did you mean 'Postgres'?"));
        all.add(
                yaml(
                                "kind: the schema sink Glue under data_sinks",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            Glue:
                                              s3_bucket: acme-lake
                                        """)
                        .expect(
                                "skippr.yml:14:5: data_sinks.warehouse.Glue: Glue is a schema sink"
                                        + " kind, not a data sink kind; data_sinks take AMQP,"
                                        + " Athena, AthenaIceberg, AzureBlob, BigQuery, ClickHouse,"
                                        + " Databricks, DuckDB, GCS, LocalFile, MotherDuck,"
                                        + " Postgres, Redshift, S3, SFTP, SkipprLake, Snowflake,"
                                        + " Stdout, Synapse"));
        all.add(
                yaml(
                                "kind: the data sink Postgres under schema_sinks",
                                NO_SINK
                                        + """
                                        schema_sinks:
                                          catalog:
                                            Postgres:
                                              host: warehouse.internal
                                        """)
                        .expect(
                                "skippr.yml:13:5: schema_sinks.catalog.Postgres: Postgres is a data"
                                        + " source and data sink kind, not a schema sink kind;"
                                        + " schema_sinks take AthenaIceberg, DuckDB, Glue,"
                                        + " SkipprLake"));
        all.add(
                yaml(
                                "kind: two kinds in one entry",
                                HEAD
                                        + WAREHOUSE
                                        + """
                                            S3:
                                              s3_bucket: acme-lake
                                        """)
                        .expect(
                                "skippr.yml:18:5: data_sinks.warehouse: expected exactly one"
                                        + " connector kind, found Postgres and S3"));
        all.add(
                yaml(
                                "kind: settings directly under the entry name",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            host: warehouse.internal
                                            user: skippr_loader
                                            password: hunter2
                                            database: analytics
                                        """)
                        .expect(
                                "skippr.yml:14:5: data_sinks.warehouse: missing the connector"
                                        + " kind: found the settings host, user, password, database"
                                        + " directly under the entry; put them under a kind, as in"
                                        + " data_sinks.warehouse.Postgres.host")
                        .secret("hunter2"));
        all.add(
                yaml(
                                "kind: a setting next to the kind instead of under it",
                                HEAD
                                        + WAREHOUSE
                                        + """
                                            port: 6432
                                        """)
                        .expect(
                                "skippr.yml:18:5: data_sinks.warehouse.port: 'port' is a setting,"
                                        + " not a connector kind; indent it under Postgres"));
        all.add(
                yaml(
                                "kind: an entry with no value",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                        """)
                        .expect(
                                "skippr.yml:13:13: data_sinks.warehouse: expected a connector kind"
                                        + " such as Postgres, found no value"));
    }

    private static void fields(List<Case> all) {
        all.add(
                yaml(
                                "field: hostname instead of host",
                                HEAD + WAREHOUSE.replace("host:", "hostname:"))
                        .expect(
                                "skippr.yml:15:7: data_sinks.warehouse.Postgres.hostname: unknown"
                                        + " field for Postgres; did you mean 'host'?",
                                "skippr.yml:15:7: data_sinks.warehouse.Postgres: missing required"
                                        + " field 'host' (PostgreSQL server host name)")
                        .errorCount(2));
        all.add(
                yaml(
                                "field: a misspelt secret field does not show its value",
                                HEAD + WAREHOUSE + "      pasword: hunter2\n")
                        .expect(
                                "skippr.yml:18:7: data_sinks.warehouse.Postgres.pasword: unknown"
                                        + " field for Postgres; did you mean 'password'?")
                        .secret("hunter2"));
        all.add(
                yaml(
                                "field: every missing required field at once",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            Postgres:
                                              password: hunter2
                                        """)
                        .expect(
                                "skippr.yml:15:7: data_sinks.warehouse.Postgres: missing required"
                                        + " field 'host' (PostgreSQL server host name)",
                                "skippr.yml:15:7: data_sinks.warehouse.Postgres: missing required"
                                        + " field 'user' (Role to log in as)",
                                "skippr.yml:15:7: data_sinks.warehouse.Postgres: missing required"
                                        + " field 'database' (Database to connect to)",
                                "\n3 errors\n")
                        .errorCount(3)
                        .secret("hunter2"));
        all.add(
                yaml(
                                "field: a kind with no settings at all",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            S3:
                                        """)
                        .expect(
                                "skippr.yml:14:8: data_sinks.warehouse.S3: missing required field"
                                        + " 's3_bucket' (S3 bucket the files are written to)"));
        all.add(
                yaml(
                                "type: port: abc next to a literal password",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            Postgres:
                                              host: warehouse.internal
                                              port: abc
                                              user: skippr_loader
                                              password: hunter2
                                              database: analytics
                                        """)
                        .expect(
                                "skippr.yml:16:13: data_sinks.warehouse.Postgres.port: expected an"
                                        + " integer, found 'abc'")
                        .secret("hunter2"));
        all.add(
                yaml("type: port: true", HEAD + WAREHOUSE + "      port: true\n")
                        .expect(
                                "skippr.yml:18:13: data_sinks.warehouse.Postgres.port: expected an"
                                        + " integer, found 'true'"));
        all.add(
                yaml(
                                "type: ClickHouse secure: \"maybe\"",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            ClickHouse:
                                              host: clickhouse.internal
                                              secure: "maybe"
                                        """)
                        .expect(
                                "skippr.yml:16:15: data_sinks.warehouse.ClickHouse.secure: expected"
                                        + " true or false, found 'maybe'"));
        all.add(
                yaml(
                                "type: a secret given as a list does not show its value",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            ClickHouse:
                                              host: clickhouse.internal
                                              password: [hunter2]
                                        """)
                        .expect(
                                "skippr.yml:16:17: data_sinks.warehouse.ClickHouse.password:"
                                        + " expected a string, found a list")
                        .secret("hunter2"));
        all.add(
                yaml(
                                "type: tables as one string instead of a list",
                                PIPELINE + SOURCE + "      tables: orders, customers\n" + WAREHOUSE)
                        .expect(
                                "skippr.yml:12:15: data_sources.app_db.Postgres.tables: expected a"
                                        + " list of strings (one per line, each starting with '- '),"
                                        + " found 'orders, customers'"));
        all.add(
                yaml(
                                "type: a mapping inside the tables list",
                                PIPELINE
                                        + SOURCE
                                        + """
                                              tables:
                                                - orders
                                                - name: customers
                                        """
                                        + WAREHOUSE)
                        .expect(
                                "skippr.yml:14:11: data_sources.app_db.Postgres.tables[1]: expected"
                                        + " a non-empty string in the list, found a mapping"));
        all.add(
                yaml("choice: sslmode: requre", HEAD + WAREHOUSE + "      sslmode: requre\n")
                        .expect(
                                "skippr.yml:18:16: data_sinks.warehouse.Postgres.sslmode: expected"
                                        + " one of disable, allow, prefer, require, verify-ca,"
                                        + " verify-full, found 'requre'; did you mean 'require'?"));
        all.add(
                yaml(
                                "choice: format: parket",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            LocalFile:
                                              path: out/orders
                                              format: parket
                                        """)
                        .expect(
                                "skippr.yml:16:15: data_sinks.warehouse.LocalFile.format: expected"
                                        + " one of parquet, jsonl, csv, found 'parket'; did you"
                                        + " mean 'parquet'?"));
    }

    private static void environmentReferences(List<Case> all) {
        all.add(
                yaml(
                                "env: an unclosed ${ in a password",
                                HEAD + WAREHOUSE + "      password: ${WAREHOUSE_PASSWORD\n")
                        .expect(
                                "skippr.yml:18:17: data_sinks.warehouse.Postgres.password:"
                                        + " malformed environment variable reference; write"
                                        + " ${NAME}, with a name of letters, digits and _"));
        all.add(
                yaml("env: a name with a dash", HEAD + WAREHOUSE + "      schema: ${RAW-SCHEMA}\n")
                        .expect(
                                "skippr.yml:18:15: data_sinks.warehouse.Postgres.schema: malformed"
                                        + " environment variable reference; write ${NAME}, with a"
                                        + " name of letters, digits and _"));
        all.add(
                yaml(
                                "env: port: 54${X} mixes text into an integer",
                                HEAD + WAREHOUSE + "      port: 54${X}\n")
                        .expect(
                                "skippr.yml:18:13: data_sinks.warehouse.Postgres.port: expected an"
                                        + " integer or one ${VAR} reference, found '54${X}'"));
    }

    private static void references(List<Case> all) {
        all.add(
                yaml(
                                "reference: data_sinks.warehous",
                                HEAD.replace("data_sinks.warehouse", "data_sinks.warehous")
                                        + WAREHOUSE)
                        .expect(
                                "skippr.yml:4:16: pipelines.orders.data_sink:"
                                        + " 'data_sinks.warehous' is not defined; did you mean"
                                        + " data_sinks.warehouse?"));
        all.add(
                yaml(
                                "reference: data_sink into data_sources",
                                HEAD.replace(
                                                "data_sink: data_sinks.warehouse",
                                                "data_sink: data_sources.app_db")
                                        + WAREHOUSE)
                        .expect(
                                "skippr.yml:4:16: pipelines.orders.data_sink: expected a reference"
                                        + " into data_sinks, found a reference into data_sources"
                                        + " ('data_sources.app_db')"));
        all.add(
                yaml(
                                "reference: no section, data_sink: warehouse",
                                HEAD.replace("data_sinks.warehouse", "warehouse") + WAREHOUSE)
                        .expect(
                                "skippr.yml:4:16: pipelines.orders.data_sink: expected a reference"
                                        + " like data_sinks.<name>, found 'warehouse'; did you mean"
                                        + " data_sinks.warehouse?"));
        all.add(
                yaml(
                                "reference: a misspelt section, data_sink: data_sink.warehouse",
                                HEAD.replace("data_sinks.warehouse", "data_sink.warehouse")
                                        + WAREHOUSE)
                        .expect(
                                "skippr.yml:4:16: pipelines.orders.data_sink: expected a reference"
                                        + " like data_sinks.<name>, found 'data_sink.warehouse';"
                                        + " did you mean data_sinks.warehouse?"));
        all.add(
                yaml(
                                "reference: to an entry that is itself wrong is not reported twice",
                                HEAD + WAREHOUSE.replace("Postgres:", "Postgress:"))
                        .expect("data_sinks.warehouse.Postgress: unknown data sink kind"));
        all.add(
                yaml(
                                "deadletter: deadletter_sink pointing at data_sinks",
                                PIPELINE
                                        + "    deadletter_sink: data_sinks.warehouse\n"
                                        + SOURCE
                                        + WAREHOUSE)
                        .expect(
                                "skippr.yml:6:22: pipelines.orders.deadletter_sink: expected a"
                                        + " reference into deadletter_sinks, found a reference into"
                                        + " data_sinks ('data_sinks.warehouse'); a deadletter sink"
                                        + " must be a separate entry from the pipeline's data_sink,"
                                        + " declared under deadletter_sinks"));
        all.add(
                yaml(
                                "deadletter: the same destination as the data sink",
                                PIPELINE
                                        + "    deadletter_sink: deadletter_sinks.rejects\n"
                                        + SOURCE
                                        + WAREHOUSE
                                        + WAREHOUSE
                                                .replace("data_sinks:", "deadletter_sinks:")
                                                .replace("warehouse:", "rejects:"))
                        .expect(
                                "skippr.yml:6:22: pipelines.orders.deadletter_sink:"
                                        + " deadletter_sinks.rejects writes to the same destination"
                                        + " as the pipeline's data_sink data_sinks.warehouse; a"
                                        + " deadletter sink must be a separate destination"));
        all.add(
                yaml(
                                "deadletter: the data sink's folder in another format",
                                PIPELINE
                                        + "    deadletter_sink: deadletter_sinks.rejects\n"
                                        + SOURCE
                                        + "data_sinks:\n  warehouse:\n    LocalFile:\n"
                                        + "      path: out\n"
                                        + "deadletter_sinks:\n  rejects:\n    LocalFile:\n"
                                        + "      path: out\n      format: jsonl\n")
                        .expect(
                                "skippr.yml:6:22: pipelines.orders.deadletter_sink:"
                                        + " deadletter_sinks.rejects writes into the same folder or"
                                        + " prefix as the pipeline's data_sink data_sinks.warehouse,"
                                        + " where their commit records would mix; give the"
                                        + " deadletter sink a folder or prefix of its own"));
    }

    private static void pipelines(List<Case> all) {
        all.add(
                yaml(
                                "pipeline: missing data_source",
                                """
                                pipelines:
                                  orders:
                                    data_sink: data_sinks.warehouse

                                """
                                        + SOURCE
                                        + WAREHOUSE)
                        .expect(
                                "skippr.yml:2:3: pipelines.orders: missing data_source; a pipeline"
                                        + " reads from one entry of data_sources, such as"
                                        + " data_source: data_sources.app_db"));
        all.add(
                yaml(
                                "pipeline: datasink instead of data_sink",
                                HEAD.replace("data_sink:", "datasink:") + WAREHOUSE)
                        .expect(
                                "skippr.yml:4:5: pipelines.orders.datasink: unknown pipeline key;"
                                        + " expected one of data_source, data_sink,"
                                        + " deadletter_sink, write_mode, soft_deletes; did you mean"
                                        + " 'data_sink'?"));
        all.add(
                yaml(
                                "pipeline: write_mode: upsert",
                                PIPELINE + "    write_mode: upsert\n" + SOURCE + WAREHOUSE)
                        .expect(
                                "skippr.yml:6:17: pipelines.orders.write_mode: expected one of"
                                        + " append, merge, replace, found 'upsert'"));
        all.add(
                yaml(
                                "pipeline: write_mode: apend",
                                PIPELINE + "    write_mode: apend\n" + SOURCE + WAREHOUSE)
                        .expect(
                                "skippr.yml:6:17: pipelines.orders.write_mode: expected one of"
                                        + " append, merge, replace, found 'apend'; did you mean"
                                        + " 'append'?"));
        all.add(
                yaml(
                                "pipeline: soft_deletes with a source that reads no changes",
                                PIPELINE + "    soft_deletes: true\n" + SOURCE + WAREHOUSE)
                        .expect(
                                "skippr.yml:6:19: pipelines.orders.soft_deletes: soft_deletes"
                                        + " marks the rows change data capture deletes, and"
                                        + " data_sources.app_db does not read changes: set"
                                        + " replication_method: cdc on it (a Postgres source), or"
                                        + " remove soft_deletes"));
        all.add(
                yaml(
                                "pipeline: soft_deletes with write_mode replace",
                                PIPELINE
                                        + "    write_mode: replace\n    soft_deletes: true\n"
                                        + SOURCE
                                        + "      replication_method: cdc\n"
                                        + WAREHOUSE)
                        .expect(
                                "skippr.yml:7:19: pipelines.orders.soft_deletes: soft_deletes"
                                        + " applies to write_mode merge (a delete sets"
                                        + " _skippr_deleted on the key's row) and append (every"
                                        + " change row carries _skippr_deleted), not replace:"
                                        + " remove soft_deletes, or use write_mode merge"));
        all.add(
                yaml(
                                "pipeline: soft_deletes into Synapse",
                                PIPELINE
                                        + "    soft_deletes: true\n"
                                        + SOURCE
                                        + "      replication_method: cdc\n"
                                        + "data_sinks:\n  warehouse:\n    Synapse:\n"
                                        + "      host: ws.sql.azuresynapse.net\n"
                                        + "      user: loader\n      database: dw\n"
                                        + "      storage_account: acct\n"
                                        + "      storage_container: stage\n"
                                        + "      storage_account_key: ${SYNAPSE_KEY}\n")
                        .expect(
                                "skippr.yml:6:19: pipelines.orders.soft_deletes: soft_deletes is"
                                        + " not supported by data_sinks.warehouse (Synapse):"
                                        + " remove soft_deletes, or load into another"
                                        + " destination"));
        all.add(
                yaml(
                                "pipeline: soft_deletes: yes",
                                PIPELINE + "    soft_deletes: yes\n" + SOURCE + WAREHOUSE)
                        .expect(
                                "skippr.yml:6:19: pipelines.orders.soft_deletes: expected one of"
                                        + " true, false, found 'yes'"));
    }

    private static void duplicatesAndNames(List<Case> all) {
        all.add(
                yaml(
                                "duplicate: data_source twice in one pipeline",
                                PIPELINE.replace(
                                                "    data_sink:",
                                                "    data_source: data_sources.app_db\n    data_sink:")
                                        + SOURCE
                                        + WAREHOUSE)
                        .expect(
                                "skippr.yml:4:5: pipelines.orders.data_source: duplicate key (first"
                                        + " at line 3)"));
        all.add(
                yaml(
                                "duplicate: two data sinks named warehouse",
                                HEAD
                                        + WAREHOUSE
                                        + """
                                          warehouse:
                                            Postgres:
                                              host: other.internal
                                              user: skippr_loader
                                              database: analytics
                                        """)
                        .expect(
                                "skippr.yml:18:3: data_sinks.warehouse: duplicate data sink name"
                                        + " 'warehouse' (first defined at line 13)"));
        all.add(
                yaml(
                                "duplicate: two pipelines named orders",
                                PIPELINE.replace("\n\n", "\n")
                                        + """
                                          orders:
                                            data_source: data_sources.app_db

                                        """
                                        + SOURCE
                                        + WAREHOUSE)
                        .expect(
                                "skippr.yml:5:3: pipelines.orders: duplicate pipeline name"
                                        + " 'orders' (first defined at line 2)"));
        all.add(
                yaml("duplicate: data_sources section twice", HEAD + WAREHOUSE + SOURCE)
                        .expect(
                                "skippr.yml:18:1: data_sources: duplicate section (first at line"
                                        + " 6)"));
        all.add(
                yaml("duplicate: a field twice", HEAD + WAREHOUSE + "      host: other.internal\n")
                        .expect(
                                "skippr.yml:18:7: data_sinks.warehouse.Postgres.host: duplicate"
                                        + " field (first at line 15)"));
        all.add(
                yaml(
                                "name: my.sink is not a valid entry name",
                                NO_SINK + WAREHOUSE.replace("warehouse:", "my.sink:"))
                        .expect(
                                "skippr.yml:12:3: data_sinks.my.sink: invalid name 'my.sink';"
                                        + " names are letters, digits, _ and -, not starting with"
                                        + " a digit or -"));
    }

    private static void schemaSinks(List<Case> all) {
        String glue =
                """
                schema_sinks:
                  glue:
                    Glue:
                      s3_bucket: acme-lake
                      athena_workgroup_name: primary
                      athena_results_s3_bucket: acme-athena-results
                      glue_database_name: bronze
                """;
        all.add(
                yaml(
                                "schema sink: on Postgres, which takes none",
                                HEAD
                                        + WAREHOUSE.replace(
                                                "  warehouse:\n",
                                                "  warehouse:\n    schema_sink: schema_sinks.glue\n")
                                        + glue)
                        .expect(
                                "skippr.yml:14:18: data_sinks.warehouse.schema_sink: Postgres data"
                                        + " sinks take no schema sink; remove schema_sink"));
        all.add(
                yaml(
                                "schema sink: Athena linking a DuckDB schema sink",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            schema_sink: schema_sinks.duck
                                            Athena:
                                              s3_bucket: acme-lake
                                              athena_workgroup_name: primary
                                              athena_results_s3_bucket: acme-athena-results
                                        schema_sinks:
                                          duck:
                                            DuckDB:
                                              path: lake.duckdb
                                        """)
                        .expect(
                                "skippr.yml:14:18: data_sinks.warehouse.schema_sink: Athena data"
                                        + " sinks take a Glue schema sink, found schema_sinks.duck"
                                        + " of kind DuckDB"));
        all.add(
                yaml(
                                "schema sink: dangling schema_sinks.glu",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            schema_sink: schema_sinks.glu
                                            Athena:
                                              s3_bucket: acme-lake
                                              athena_workgroup_name: primary
                                              athena_results_s3_bucket: acme-athena-results
                                        """
                                        + glue)
                        .expect(
                                "skippr.yml:14:18: data_sinks.warehouse.schema_sink:"
                                        + " 'schema_sinks.glu' is not defined; did you mean"
                                        + " schema_sinks.glue?"));
        all.add(
                yaml(
                                "paired: DuckDB copies with different paths",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            schema_sink: schema_sinks.warehouse
                                            DuckDB:
                                              path: analytics.duckdb
                                        schema_sinks:
                                          warehouse:
                                            DuckDB:
                                              path: analytics-old.duckdb
                                        """)
                        .expect(
                                "skippr.yml:20:13: schema_sinks.warehouse.DuckDB.path: differs from"
                                        + " data_sinks.warehouse.DuckDB.path ('analytics.duckdb' vs"
                                        + " 'analytics-old.duckdb'); the paired DuckDB data sink and"
                                        + " schema sink must hold identical settings, and Skippr"
                                        + " refuses to run until they do"));
        all.add(
                yaml(
                                "paired: AthenaIceberg copies with different Glue databases",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            schema_sink: schema_sinks.warehouse
                                            AthenaIceberg:
                                              s3_bucket: acme-lake
                                              athena_workgroup_name: primary
                                              athena_results_s3_bucket: acme-athena-results
                                              glue_database_name: bronze
                                        schema_sinks:
                                          warehouse:
                                            AthenaIceberg:
                                              s3_bucket: acme-lake
                                              athena_workgroup_name: primary
                                              athena_results_s3_bucket: acme-athena-results
                                              glue_database_name: silver
                                        """)
                        .expect(
                                "skippr.yml:26:27:"
                                        + " schema_sinks.warehouse.AthenaIceberg.glue_database_name:"
                                        + " differs from"
                                        + " data_sinks.warehouse.AthenaIceberg.glue_database_name"
                                        + " ('bronze' vs 'silver'); the paired AthenaIceberg data"
                                        + " sink and schema sink must hold identical settings, and"
                                        + " Skippr refuses to run until they do"));
        all.add(
                yaml(
                                "paired: SkipprLake catalog_password differs, neither value shown",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            schema_sink: schema_sinks.warehouse
                                            SkipprLake:
                                              warehouse: /lake
                                              catalog_password: hunter2
                                        schema_sinks:
                                          warehouse:
                                            SkipprLake:
                                              warehouse: /lake
                                              catalog_password: swordfish
                                        """)
                        .expect(
                                "skippr.yml:22:25:"
                                        + " schema_sinks.warehouse.SkipprLake.catalog_password:"
                                        + " differs from"
                                        + " data_sinks.warehouse.SkipprLake.catalog_password; the"
                                        + " paired SkipprLake data sink and schema sink must hold"
                                        + " identical settings, and Skippr refuses to run until"
                                        + " they do")
                        .secret("hunter2")
                        .secret("swordfish"));
        all.add(
                yaml(
                                "schema sink: under a data source",
                                HEAD.replace(
                                                "  app_db:\n",
                                                "  app_db:\n    schema_sink: schema_sinks.glue\n")
                                        + WAREHOUSE
                                        + glue)
                        .expect(
                                "skippr.yml:8:5: data_sources.app_db.schema_sink: only data sinks"
                                        + " link a schema sink"));
    }

    private static void validateCommand(List<Case> all) {
        String withSecrets =
                PIPELINE
                        + """
                        data_sources:
                          app_db:
                            Postgres:
                              host: db.internal
                              user: skippr_reader
                              password: ${APP_DB_PASSWORD}
                              database: app
                        data_sinks:
                          warehouse:
                            Postgres:
                              host: warehouse.internal
                              port: ${WAREHOUSE_PORT}
                              user: skippr_loader
                              password: ${WAREHOUSE_PASSWORD}
                              database: analytics
                        """;
        all.add(
                yaml("validate: a missing environment variable", withSecrets)
                        .withEnv("APP_DB_PASSWORD", "s3cr3t-app", "WAREHOUSE_PORT", "5432")
                        .expect(
                                "skippr.yml:19:17: data_sinks.warehouse.Postgres.password:"
                                        + " environment variable WAREHOUSE_PASSWORD is not set; the"
                                        + " data sink 'warehouse' needs it (export"
                                        + " WAREHOUSE_PASSWORD=...)")
                        .secret("s3cr3t-app"));
        all.add(
                yaml("validate: an environment variable that is not an integer", withSecrets)
                        .withEnv(
                                "APP_DB_PASSWORD", "s3cr3t-app",
                                "WAREHOUSE_PASSWORD", "s3cr3t-wh",
                                "WAREHOUSE_PORT", "54x")
                        .expect(
                                "skippr.yml:17:13: data_sinks.warehouse.Postgres.port: expected an"
                                        + " integer from the environment, found '54x' (from"
                                        + " WAREHOUSE_PORT)")
                        .secret("s3cr3t-app")
                        .secret("s3cr3t-wh"));
        all.add(
                yaml("validate: --pipeline order, a pipeline that does not exist", HEAD + WAREHOUSE)
                        .withArgs("validate", "--pipeline", "order")
                        .expect(
                                "skippr.yml: pipeline 'order' is not defined; did you mean 'orders'?"));
        all.add(
                yaml("validate: --pipeline with nothing close", HEAD + WAREHOUSE)
                        .withArgs("validate", "--pipeline", "invoices")
                        .expect(
                                "skippr.yml: pipeline 'invoices' is not defined; pipelines:"
                                        + " orders"));
        all.add(
                none("validate: no skippr.yml here or in any parent folder")
                        .expect(
                                "error: skippr.yml: no skippr.yml in ",
                                " or its parent folders; pass --config FILE or set"
                                        + " SKIPPR_CONFIG"));
        all.add(
                none("validate: --config names a missing file")
                        .withArgs("validate", "--config", "prod.yml")
                        .expect("prod.yml: no such file (named by --config)"));
        all.add(
                none("validate: --config before the command names a missing file")
                        .withArgs("--config", "prod.yml", "validate")
                        .expect("prod.yml: no such file (named by --config)"));
        all.add(
                none("validate: --config names a folder")
                        .withArgs("validate", "--config", ".")
                        .expect(
                                "/.: is a folder, not a config file (named by --config); name the"
                                        + " skippr.yml file itself"));
        all.add(
                none("validate: $SKIPPR_CONFIG names a missing file")
                        .withEnv("SKIPPR_CONFIG", "conf/skippr.yml")
                        .expect("conf/skippr.yml: no such file (named by $SKIPPR_CONFIG)"));
        all.add(
                yaml(
                                "validate: several mistakes are all reported at once",
                                """
                                pipelines:
                                  orders:
                                    data_source: data_sources.app_db
                                    data_sink: data_sinks.warehous
                                    write_mode: upsert

                                data_sources:
                                  app_db:
                                    Postgres:
                                      hostname: db.internal
                                      user: skippr_reader
                                      password: hunter2
                                      database: app
                                data_sinks:
                                  warehouse:
                                    Postgres:
                                      host: warehouse.internal
                                      port: abc
                                      user: skippr_loader
                                      database: analytics
                                      sslmode: requre
                                """)
                        .expect(
                                "skippr.yml:10:7: data_sources.app_db.Postgres.hostname: unknown"
                                        + " field for Postgres; did you mean 'host'?",
                                "skippr.yml:10:7: data_sources.app_db.Postgres: missing required"
                                        + " field 'host' (PostgreSQL server host name)",
                                "skippr.yml:18:13: data_sinks.warehouse.Postgres.port: expected an"
                                        + " integer, found 'abc'",
                                "skippr.yml:21:16: data_sinks.warehouse.Postgres.sslmode: expected"
                                        + " one of disable, allow, prefer, require, verify-ca,"
                                        + " verify-full, found 'requre'; did you mean 'require'?",
                                "skippr.yml:4:16: pipelines.orders.data_sink:"
                                        + " 'data_sinks.warehous' is not defined; did you mean"
                                        + " data_sinks.warehouse?",
                                "skippr.yml:5:17: pipelines.orders.write_mode: expected one of"
                                        + " append, merge, replace, found 'upsert'",
                                "\n6 errors\n")
                        .errorCount(6)
                        .secret("hunter2"));
    }

    private static void connectCommand(List<Case> all) {
        all.add(
                yaml("connect: postgres with no flags lists every missing one", NO_SINK)
                        .withArgs("connect", "data-sink", "postgres", "--pipeline", "orders")
                        .expect(
                                "error: skipprd connect data-sink postgres: missing required"
                                        + " option --name (name of the entry in skippr.yml)\n",
                                "error: skipprd connect data-sink postgres: missing required"
                                        + " option --host (PostgreSQL server host name)\n",
                                "error: skipprd connect data-sink postgres: missing required"
                                        + " option --user (Role to log in as)\n",
                                "error: skipprd connect data-sink postgres: missing required"
                                        + " option --database (Database to connect to)\n",
                                "\n4 errors\n")
                        .errorCount(4));
        all.add(
                connectPostgres(
                                "connect: --port abc, with a literal --password",
                                "--port",
                                "abc",
                                "--password",
                                "hunter2")
                        .expect(
                                "error: skipprd connect data-sink postgres: --port: expected an"
                                        + " integer, found 'abc'")
                        .secret("hunter2"));
        all.add(
                connectPostgres("connect: --port 54${X}", "--port", "54${X}")
                        .expect(
                                "error: skipprd connect data-sink postgres: --port: expected an"
                                        + " integer or one ${VAR} reference, found '54${X}'"));
        all.add(
                connectPostgres("connect: --sslmode requre", "--sslmode", "requre")
                        .expect(
                                "error: skipprd connect data-sink postgres: --sslmode: expected"
                                        + " one of disable, allow, prefer, require, verify-ca,"
                                        + " verify-full, found 'requre'; did you mean 'require'?"));
        all.add(
                connectPostgres(
                                "connect: --password with an unclosed ${",
                                "--password",
                                "${WH_PASSWORD")
                        .expect(
                                "error: skipprd connect data-sink postgres: --password: malformed"
                                        + " environment variable reference; write ${NAME}"));
        all.add(
                yaml("connect: --secure maybe on ClickHouse", NO_SINK)
                        .withArgs(
                                "connect",
                                "data-sink",
                                "clickhouse",
                                "--pipeline",
                                "orders",
                                "--name",
                                "events",
                                "--host",
                                "clickhouse.internal",
                                "--secure",
                                "maybe",
                                "--password",
                                "hunter2")
                        .expect(
                                "error: skipprd connect data-sink clickhouse: --secure: expected"
                                        + " true or false, found 'maybe'")
                        .secret("hunter2"));
        all.add(
                connectPostgres("connect: --config names a folder", "--config", ".")
                        .expect(
                                "/.: is a folder, not a config file (named by --config); name the"
                                        + " skippr.yml file itself"));
        all.add(
                yaml("connect: --name my.sink", NO_SINK)
                        .withArgs(
                                "connect",
                                "data-sink",
                                "postgres",
                                "--pipeline",
                                "orders",
                                "--name",
                                "my.sink",
                                "--host",
                                "h",
                                "--user",
                                "u",
                                "--database",
                                "d")
                        .expect(
                                "error: skipprd connect data-sink postgres: --name: invalid name"
                                        + " 'my.sink'; names are letters, digits, _ and -, not"
                                        + " starting with a digit or -"));
        all.add(
                yaml("connect: --pipeline nosuch", NO_SINK)
                        .withArgs(
                                "connect",
                                "data-sink",
                                "postgres",
                                "--pipeline",
                                "nosuch",
                                "--name",
                                "warehouse",
                                "--host",
                                "h",
                                "--user",
                                "u",
                                "--database",
                                "d")
                        .expect(
                                "error: pipeline 'nosuch' is not defined; add its data source first"
                                        + " with skipprd connect data-source <kind> --pipeline"
                                        + " nosuch --name <name> ..."));
        all.add(
                yaml("connect: --pipeline order, close to orders", NO_SINK)
                        .withArgs(
                                "connect",
                                "data-sink",
                                "postgres",
                                "--pipeline",
                                "order",
                                "--name",
                                "warehouse",
                                "--host",
                                "h",
                                "--user",
                                "u",
                                "--database",
                                "d")
                        .expect("error: pipeline 'order' is not defined; did you mean 'orders'?"));
        all.add(
                yaml("connect: schema-sink glue when the pipeline has no data sink", NO_SINK)
                        .withArgs(glue())
                        .expect(
                                "error: pipeline 'orders' has no data sink to link the Glue schema"
                                        + " sink from; add the data sink first with skipprd connect"
                                        + " data-sink <kind> --pipeline orders --name <name> ..."));
        all.add(
                yaml("connect: schema-sink glue for a Postgres data sink", HEAD + WAREHOUSE)
                        .withArgs(glue())
                        .expect(
                                "error: the data sink data_sinks.warehouse of pipeline 'orders' is"
                                        + " Postgres, which takes no schema sink"));
        all.add(
                yaml(
                                "connect: schema-sink duckdb for an Athena data sink",
                                HEAD
                                        + """
                                        data_sinks:
                                          warehouse:
                                            Athena:
                                              s3_bucket: acme-lake
                                              athena_workgroup_name: primary
                                              athena_results_s3_bucket: acme-athena-results
                                        """)
                        .withArgs(
                                "connect",
                                "schema-sink",
                                "duckdb",
                                "--pipeline",
                                "orders",
                                "--name",
                                "duck",
                                "--path",
                                "lake.duckdb")
                        .expect(
                                "error: the data sink data_sinks.warehouse of pipeline 'orders' is"
                                        + " Athena, which takes a Glue schema sink, not DuckDB"));
        all.add(
                yaml("connect: schema-sink glue without --pipeline or any flag", HEAD + WAREHOUSE)
                        .withArgs("connect", "schema-sink", "glue")
                        .expect(
                                "error: skipprd connect schema-sink glue: missing required option"
                                        + " --pipeline (the pipeline whose data sink links this"
                                        + " schema sink)",
                                "error: skipprd connect schema-sink glue: missing required option"
                                        + " --glue-database-name (Glue database that holds the"
                                        + " tables)",
                                "\n6 errors\n")
                        .errorCount(6));
        all.add(
                yaml(
                                "connect: into a file that has mistakes writes nothing",
                                NO_SINK
                                        + WAREHOUSE.replace("warehouse:", "old:")
                                        + "      port: abc\n")
                        .withArgs(
                                "connect",
                                "data-sink",
                                "postgres",
                                "--pipeline",
                                "orders",
                                "--name",
                                "warehouse",
                                "--host",
                                "h",
                                "--user",
                                "u",
                                "--database",
                                "d")
                        .expect(
                                "skippr.yml:17:13: data_sinks.old.Postgres.port: expected an"
                                        + " integer, found 'abc'"));
    }

    private static void commandLine(List<Case> all) {
        all.add(
                connectPostgres("connect: --hostname, an unknown flag", "--hostname", "h")
                        .expect(
                                "error: unknown option '--hostname'; did you mean --host?\n"
                                        + "Run 'skipprd connect data-sink postgres --help' for"
                                        + " usage."));
        all.add(
                yaml("connect: data-sink postgress, an unknown kind", NO_SINK)
                        .withArgs(
                                "connect",
                                "data-sink",
                                "postgress",
                                "--pipeline",
                                "orders",
                                "--name",
                                "warehouse")
                        .expect(
                                "error: unknown data sink kind 'postgress'; did you mean"
                                        + " postgres?\n"
                                        + "Run 'skipprd connect data-sink --help' for usage."));
        all.add(
                yaml("connect: data-sink oracle, a kind with nothing close", NO_SINK)
                        .withArgs("connect", "data-sink", "oracle")
                        .expect(
                                "error: unknown data sink kind 'oracle'; expected one of amqp,"
                                        + " athena, athenaiceberg, azureblob, bigquery, clickhouse,"
                                        + " databricks, duckdb, gcs, localfile, motherduck,"
                                        + " postgres, redshift, s3, sftp, skipprlake, snowflake,"
                                        + " stdout, synapse"));
        all.add(
                yaml("connect: deadletter-sink s3 explains YAML or Java", HEAD + WAREHOUSE)
                        .withArgs(
                                "connect",
                                "deadletter-sink",
                                "s3",
                                "--pipeline",
                                "orders",
                                "--name",
                                "rejects",
                                "--s3-bucket",
                                "acme-lake")
                        .expect(
                                "error: skipprd connect does not write deadletter sinks; declare"
                                        + " one under deadletter_sinks in skippr.yml, or with"
                                        + " Config.deadletterSink(...) in Java, and point the"
                                        + " pipeline's deadletter_sink at it."));
        all.add(
                connectPostgres("connect: --port without a value", "--port")
                        .expect(
                                "error: missing required parameter for option '--port' (PORT)\n"
                                        + "Run 'skipprd connect data-sink postgres --help' for"
                                        + " usage."));
        all.add(
                yaml("connect: no subcommand", NO_SINK)
                        .withArgs("connect")
                        .expect(
                                "error: skipprd connect needs a subcommand: data-source, data-sink,"
                                        + " schema-sink\n",
                                "Usage: skipprd connect"));
        all.add(
                yaml("connect: data-sink with no kind", NO_SINK)
                        .withArgs("connect", "data-sink")
                        .expect(
                                "error: skipprd connect data-sink needs a subcommand: amqp, athena,"
                                        + " athenaiceberg, azureblob, bigquery, clickhouse,"
                                        + " databricks, duckdb, gcs, localfile, motherduck,"
                                        + " postgres, redshift, s3, sftp, skipprlake, snowflake,"
                                        + " stdout, synapse\n"));
        all.add(
                yaml("skipprd: no arguments", NO_SINK)
                        .withArgs()
                        .expect(
                                "error: skipprd needs a command: connect, validate, sync, savepoint, reset, query,"
                                        + " verify, history, deadletters, config\n",
                                "Usage: skipprd"));
        all.add(
                yaml("skipprd: conect, a misspelt command", NO_SINK)
                        .withArgs("conect", "data-sink", "postgres")
                        .expect(
                                "error: unknown command 'conect' for skipprd; did you mean"
                                        + " connect?"));
        all.add(
                yaml("skipprd: validate --bogus", HEAD + WAREHOUSE)
                        .withArgs("validate", "--bogus")
                        .expect(
                                "error: unknown option '--bogus'\n"
                                        + "Run 'skipprd validate --help' for usage."));
    }

    // ---- building cases ---------------------------------------------------------------------

    private static Case yaml(String name, String yaml) {
        return new Case(name, yaml, List.of("validate"), Map.of(), 2, List.of(), 1, List.of());
    }

    private static Case none(String name) {
        return yaml(name, null);
    }

    private static Case connectPostgres(String name, String... extra) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "connect",
                                "data-sink",
                                "postgres",
                                "--pipeline",
                                "orders",
                                "--name",
                                "warehouse",
                                "--host",
                                "warehouse.internal",
                                "--user",
                                "skippr_loader",
                                "--database",
                                "analytics"));
        args.addAll(List.of(extra));
        return yaml(name, NO_SINK).withArgs(args.toArray(String[]::new));
    }

    private static String[] glue() {
        return new String[] {
            "connect",
            "schema-sink",
            "glue",
            "--pipeline",
            "orders",
            "--name",
            "glue",
            "--s3-bucket",
            "acme-lake",
            "--athena-workgroup-name",
            "primary",
            "--athena-results-s3-bucket",
            "acme-athena-results",
            "--glue-database-name",
            "bronze"
        };
    }

    /**
     * One bad input and what it must print.
     *
     * @param yaml the skippr.yml written into the test folder, or null for none
     * @param expected fragments that stderr must contain, exactly
     * @param errors how many "error:" lines stderr must have
     * @param secrets values that must appear nowhere in the output
     */
    record Case(
            String name,
            String yaml,
            List<String> args,
            Map<String, String> env,
            int exit,
            List<String> expected,
            int errors,
            List<String> secrets) {

        Case withArgs(String... newArgs) {
            return new Case(name, yaml, List.of(newArgs), env, exit, expected, errors, secrets);
        }

        Case withEnv(String... pairs) {
            Map<String, String> map = new LinkedHashMap<>();
            for (int i = 0; i < pairs.length; i += 2) {
                map.put(pairs[i], pairs[i + 1]);
            }
            return new Case(name, yaml, args, Map.copyOf(map), exit, expected, errors, secrets);
        }

        Case expect(String... fragments) {
            return new Case(name, yaml, args, env, exit, List.of(fragments), errors, secrets);
        }

        Case errorCount(int count) {
            return new Case(name, yaml, args, env, exit, expected, count, secrets);
        }

        Case secret(String value) {
            List<String> more = new ArrayList<>(secrets);
            more.add(value);
            return new Case(name, yaml, args, env, exit, expected, errors, List.copyOf(more));
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
