package io.skippr.sinks.databricks.fake;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The fake's Unity Catalog: catalogs, schemas and volumes, kept in the backing database ({@code
 * "_fake"}) and changed in the statement's transaction. A schema is a PostgreSQL schema of its own
 * ({@code s_<n>}), so any catalog and schema name maps to one; a table keeps its (lower-case) name
 * in it. A volume is a folder of its own ({@code v_<n>}) under the fake's root folder. Names are
 * case-insensitive, as in Unity Catalog: they are kept in lower case.
 */
final class UnityCatalog {
    /** PostgreSQL's longest identifier, in bytes; a longer name would be cut silently there. */
    static final int PG_NAME_BYTES = 63;

    private final Path root;

    UnityCatalog(Path root) {
        this.root = root;
    }

    /** The registry, created once in a fresh backing database, with catalog {@code main}. */
    static void create(Connection pg) throws SQLException {
        try (Statement st = pg.createStatement()) {
            st.execute("CREATE SCHEMA \"_fake\"");
            st.execute("CREATE SEQUENCE \"_fake\".ids");
            st.execute("CREATE TABLE \"_fake\".catalogs (name text PRIMARY KEY)");
            st.execute(
                    "CREATE TABLE \"_fake\".schemas (catalog text REFERENCES \"_fake\".catalogs,"
                            + " name text, pg_schema text UNIQUE, PRIMARY KEY (catalog, name))");
            st.execute(
                    "CREATE TABLE \"_fake\".volumes (catalog text, schema text, name text,"
                            + " folder text UNIQUE, PRIMARY KEY (catalog, schema, name),"
                            + " FOREIGN KEY (catalog, schema) REFERENCES \"_fake\".schemas)");
            st.execute(
                    "CREATE TABLE \"_fake\".copy_history (table_oid oid, path text,"
                            + " PRIMARY KEY (table_oid, path))");
        }
    }

    static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /** A table's names in Databricks and its place in PostgreSQL. */
    record Table(String catalog, String schema, String name, String pgSchema) {
        String pg() {
            return SqlTokens.quote(pgSchema) + "." + SqlTokens.quote(standIn(name));
        }

        String display() {
            return DatabricksError.display(catalog, schema, name);
        }
    }

    /** The catalog and schema a statement resolves one- and two-part names in. */
    record Defaults(String catalog, String schema) {}

    boolean catalogExists(Connection pg, String catalog) throws SQLException {
        return exists(pg, "SELECT 1 FROM \"_fake\".catalogs WHERE name = ?", catalog);
    }

    /** The PostgreSQL schema of {@code catalog.schema}; refused as Databricks does if absent. */
    String pgSchema(Connection pg, String catalog, String schema)
            throws SQLException, DatabricksError {
        Optional<String> found = findSchema(pg, catalog, schema);
        if (found.isPresent()) {
            return found.get();
        }
        if (!catalogExists(pg, catalog)) {
            throw DatabricksError.catalogNotFound(catalog);
        }
        throw DatabricksError.schemaNotFound(DatabricksError.display(catalog, schema));
    }

    Optional<String> findSchema(Connection pg, String catalog, String schema) throws SQLException {
        try (PreparedStatement st =
                pg.prepareStatement(
                        "SELECT pg_schema FROM \"_fake\".schemas WHERE catalog = ? AND name = ?")) {
            st.setString(1, catalog);
            st.setString(2, schema);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    /** {@code [[catalog.]schema.]table} resolved against the defaults; the table need not exist. */
    Table table(Connection pg, List<String> parts, Defaults defaults)
            throws SQLException, DatabricksError {
        if (parts.isEmpty() || parts.size() > 3) {
            throw DatabricksError.unsupported(
                    "a table name of " + parts.size() + " parts (" + String.join(".", parts) + ")");
        }
        String table = fold(parts.get(parts.size() - 1));
        String schema = parts.size() >= 2 ? fold(parts.get(parts.size() - 2)) : defaults.schema();
        String catalog = parts.size() == 3 ? fold(parts.get(0)) : defaults.catalog();
        checkLength(table);
        return new Table(catalog, schema, table, pgSchema(pg, catalog, schema));
    }

    static boolean tableExists(Connection pg, Table t) throws SQLException {
        try (PreparedStatement st =
                pg.prepareStatement(
                        "SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = ? AND tablename = ?")) {
            st.setString(1, t.pgSchema());
            st.setString(2, standIn(t.name()));
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Databricks' longest table and column name, in characters. */
    static final int MAX_NAME_CHARS = 255;

    /** Refuses a name longer than Databricks' 255 characters. */
    static void checkLength(String name) throws DatabricksError {
        if (name.codePointCount(0, name.length()) > MAX_NAME_CHARS) {
            throw DatabricksError.unsupported(
                    "an identifier longer than "
                            + MAX_NAME_CHARS
                            + " characters ("
                            + DatabricksError.display(name)
                            + ")");
        }
    }

    /** The names {@link #standIn} gave, to the names they stand for. */
    private static final java.util.Map<String, String> ORIGINALS =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The name a (folded) table or column name has in PostgreSQL: itself up to PostgreSQL's 63
     * bytes; a longer one, which Databricks keeps whole and PostgreSQL would cut silently, is kept
     * under a deterministic stand-in (its first bytes, {@code _}, 12 hex digits of its SHA-256),
     * which answers and messages map back ({@link #original}).
     */
    static String standIn(String name) {
        byte[] utf8 = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (utf8.length <= PG_NAME_BYTES) {
            return name;
        }
        String hash;
        try {
            hash =
                    java.util.HexFormat.of()
                            .formatHex(
                                    java.security.MessageDigest.getInstance("SHA-256").digest(utf8))
                            .substring(0, 12);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        StringBuilder prefix = new StringBuilder();
        int bytes = 0;
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            int n =
                    new String(Character.toChars(cp))
                            .getBytes(java.nio.charset.StandardCharsets.UTF_8)
                            .length;
            if (bytes + n > PG_NAME_BYTES - 13) {
                break;
            }
            prefix.appendCodePoint(cp);
            bytes += n;
            i += Character.charCount(cp);
        }
        String standIn = prefix + "_" + hash;
        ORIGINALS.put(standIn, name);
        return standIn;
    }

    /** The Databricks name of a PostgreSQL name {@link #standIn} gave; other names as they are. */
    static String original(String pgName) {
        return ORIGINALS.getOrDefault(pgName, pgName);
    }

    void createCatalog(Connection pg, String catalog, boolean ifNotExists)
            throws SQLException, DatabricksError {
        if (catalogExists(pg, catalog)) {
            if (ifNotExists) {
                return;
            }
            throw DatabricksError.catalogExists(DatabricksError.display(catalog));
        }
        update(pg, "INSERT INTO \"_fake\".catalogs VALUES (?)", catalog);
        // Unity Catalog gives every new catalog the schema default
        createSchema(pg, catalog, "default", false);
    }

    void dropCatalog(Connection pg, String catalog, boolean ifExists, boolean cascade)
            throws SQLException, DatabricksError, IOException {
        if (!catalogExists(pg, catalog)) {
            if (ifExists) {
                return;
            }
            throw DatabricksError.catalogNotFound(catalog);
        }
        List<String> schemas =
                names(pg, "SELECT name FROM \"_fake\".schemas WHERE catalog = ?", catalog);
        if (!cascade && schemas.stream().anyMatch(s -> !s.equals("default"))) {
            throw new DatabricksError(
                    "SCHEMA_NOT_EMPTY",
                    "2BP01",
                    "Cannot drop a schema "
                            + DatabricksError.display(catalog)
                            + " because it contains objects.\nUse DROP SCHEMA ... CASCADE to drop the"
                            + " schema and all its objects.");
        }
        for (String schema : schemas) {
            dropSchema(pg, catalog, schema, false, true);
        }
        update(pg, "DELETE FROM \"_fake\".catalogs WHERE name = ?", catalog);
    }

    void createSchema(Connection pg, String catalog, String schema, boolean ifNotExists)
            throws SQLException, DatabricksError {
        if (!catalogExists(pg, catalog)) {
            throw DatabricksError.catalogNotFound(catalog);
        }
        if (findSchema(pg, catalog, schema).isPresent()) {
            if (ifNotExists) {
                return;
            }
            throw DatabricksError.schemaExists(DatabricksError.display(catalog, schema));
        }
        String pgSchema = "s_" + nextId(pg);
        try (Statement st = pg.createStatement()) {
            st.execute("CREATE SCHEMA " + SqlTokens.quote(pgSchema));
        }
        try (PreparedStatement st =
                pg.prepareStatement("INSERT INTO \"_fake\".schemas VALUES (?, ?, ?)")) {
            st.setString(1, catalog);
            st.setString(2, schema);
            st.setString(3, pgSchema);
            st.executeUpdate();
        }
    }

    void dropSchema(Connection pg, String catalog, String schema, boolean ifExists, boolean cascade)
            throws SQLException, DatabricksError, IOException {
        Optional<String> pgSchema = findSchema(pg, catalog, schema);
        if (pgSchema.isEmpty()) {
            if (ifExists && catalogExists(pg, catalog)) {
                return;
            }
            pgSchema(pg, catalog, schema);
        }
        List<String> volumes =
                names(
                        pg,
                        "SELECT name FROM \"_fake\".volumes WHERE catalog = ? AND schema = ?",
                        catalog,
                        schema);
        boolean tables =
                exists(
                        pg,
                        "SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = ?",
                        pgSchema.get());
        if (!cascade && (tables || !volumes.isEmpty())) {
            throw new DatabricksError(
                    "SCHEMA_NOT_EMPTY",
                    "2BP01",
                    "Cannot drop a schema "
                            + DatabricksError.display(catalog, schema)
                            + " because it contains objects.\nUse DROP SCHEMA ... CASCADE to drop the"
                            + " schema and all its objects.");
        }
        for (String volume : volumes) {
            dropVolume(pg, catalog, schema, volume, false);
        }
        try (Statement st = pg.createStatement()) {
            st.execute("DROP SCHEMA " + SqlTokens.quote(pgSchema.get()) + " CASCADE");
        }
        update(pg, "DELETE FROM \"_fake\".schemas WHERE catalog = ? AND name = ?", catalog, schema);
    }

    void createVolume(
            Connection pg, String catalog, String schema, String volume, boolean ifNotExists)
            throws SQLException, DatabricksError, IOException {
        pgSchema(pg, catalog, schema);
        if (findVolume(pg, catalog, schema, volume).isPresent()) {
            if (ifNotExists) {
                return;
            }
            throw DatabricksError.volumeExists(DatabricksError.display(catalog, schema, volume));
        }
        String folder = "v_" + nextId(pg);
        Files.createDirectories(root.resolve(folder));
        try (PreparedStatement st =
                pg.prepareStatement("INSERT INTO \"_fake\".volumes VALUES (?, ?, ?, ?)")) {
            st.setString(1, catalog);
            st.setString(2, schema);
            st.setString(3, volume);
            st.setString(4, folder);
            st.executeUpdate();
        }
    }

    /**
     * Drops the volume and, as Unity Catalog does for a managed volume, its files. The files go
     * before the statement commits: a drop that then fails leaves an empty volume.
     */
    void dropVolume(Connection pg, String catalog, String schema, String volume, boolean ifExists)
            throws SQLException, DatabricksError, IOException {
        Optional<Path> folder = findVolume(pg, catalog, schema, volume);
        if (folder.isEmpty()) {
            pgSchema(pg, catalog, schema);
            if (ifExists) {
                return;
            }
            throw DatabricksError.volumeNotFound(DatabricksError.display(catalog, schema, volume));
        }
        update(
                pg,
                "DELETE FROM \"_fake\".volumes WHERE catalog = ? AND schema = ? AND name = ?",
                catalog,
                schema,
                volume);
        deleteTree(folder.get());
    }

    /** The folder of {@code /Volumes/catalog/schema/volume}, if the volume exists. */
    Optional<Path> findVolume(Connection pg, String catalog, String schema, String volume)
            throws SQLException {
        try (PreparedStatement st =
                pg.prepareStatement(
                        "SELECT folder FROM \"_fake\".volumes WHERE catalog = ? AND schema = ?"
                                + " AND name = ?")) {
            st.setString(1, fold(catalog));
            st.setString(2, fold(schema));
            st.setString(3, fold(volume));
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Optional.of(root.resolve(rs.getString(1))) : Optional.empty();
            }
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static long nextId(Connection pg) throws SQLException {
        try (Statement st = pg.createStatement();
                ResultSet rs = st.executeQuery("SELECT nextval('\"_fake\".ids')")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static boolean exists(Connection pg, String sql, String... args) throws SQLException {
        try (PreparedStatement st = pg.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                st.setString(i + 1, args[i]);
            }
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static List<String> names(Connection pg, String sql, String... args)
            throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement st = pg.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                st.setString(i + 1, args[i]);
            }
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    private static void update(Connection pg, String sql, String... args) throws SQLException {
        try (PreparedStatement st = pg.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                st.setString(i + 1, args[i]);
            }
            st.executeUpdate();
        }
    }
}
