package io.skippr.sinks.synapse.fake;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.common.StorageSharedKeyCredential;
import io.skippr.sinks.synapse.fake.Tsql.Kind;
import io.skippr.sinks.synapse.fake.Tsql.Token;
import io.skippr.sinks.testing.DuckDb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code COPY INTO <table> (<columns>) FROM '<url>', … WITH (FILE_TYPE = 'PARQUET', CREDENTIAL =
 * (IDENTITY = 'Storage Account Key', SECRET = '<key>'))}: each URL must name a blob of the Azurite
 * that the tests run; it is read with the account in its path and the statement's key (a wrong key
 * fails as Azure would refuse it), its Parquet read by DuckDB and its columns inserted by position
 * into the listed ones, in the session's transaction. Any other form or option is refused.
 */
final class CopyInto {
    private static final int BATCH = 1000;

    /** A parsed COPY INTO: backing table, backing column names, file URLs, key. */
    record Spec(String table, List<String> columns, List<String> urls, String key) {
        static Spec parse(List<Token> s, Tsql.Names names) throws SynapseError {
            int i = 1;
            if (!s.get(i++).is("INTO")) {
                throw SynapseError.syntax(s.get(1).text());
            }
            StringBuilder table = new StringBuilder();
            while (s.get(i).kind() == Kind.QUOTED || s.get(i).sym(".")) {
                Token t = s.get(i++);
                table.append(t.kind() == Kind.QUOTED ? Tsql.quote(names.apply(t.text())) : ".");
            }
            List<String> columns = new ArrayList<>();
            if (s.get(i).sym("(")) {
                i++;
                while (!s.get(i).sym(")")) {
                    Token t = s.get(i++);
                    if (t.kind() == Kind.QUOTED) {
                        columns.add(names.apply(t.text()));
                    } else if (!t.sym(",")) {
                        throw SynapseError.syntax(t.text());
                    }
                }
                i++;
            }
            if (!s.get(i++).is("FROM")) {
                throw SynapseError.syntax(s.get(i - 1).text());
            }
            List<String> urls = new ArrayList<>();
            while (s.get(i).kind() == Kind.STRING) {
                urls.add(s.get(i++).text());
                if (s.get(i).sym(",")) {
                    i++;
                }
            }
            if (urls.isEmpty() || !s.get(i++).is("WITH") || !s.get(i++).sym("(")) {
                throw SynapseError.syntax("FROM");
            }
            String fileType = null;
            String identity = null;
            String key = null;
            while (!s.get(i).sym(")")) {
                String option = s.get(i++).upper();
                if (!s.get(i++).sym("=")) {
                    throw SynapseError.syntax(option);
                }
                switch (option) {
                    case "FILE_TYPE" -> fileType = s.get(i++).text();
                    case "CREDENTIAL" -> {
                        if (!s.get(i++).sym("(")) {
                            throw SynapseError.syntax("CREDENTIAL");
                        }
                        while (!s.get(i).sym(")")) {
                            String part = s.get(i++).upper();
                            if (!s.get(i++).sym("=")) {
                                throw SynapseError.syntax(part);
                            }
                            String value = s.get(i++).text();
                            if (part.equals("IDENTITY")) {
                                identity = value;
                            } else if (part.equals("SECRET")) {
                                key = value;
                            } else {
                                throw SynapseError.unsupported("CREDENTIAL part " + part);
                            }
                            if (s.get(i).sym(",")) {
                                i++;
                            }
                        }
                        i++;
                    }
                    default -> throw SynapseError.unsupported("the COPY option " + option);
                }
                if (s.get(i).sym(",")) {
                    i++;
                }
            }
            if (!"PARQUET".equalsIgnoreCase(fileType)) {
                throw SynapseError.unsupported("COPY INTO of FILE_TYPE " + fileType);
            }
            if (!"Storage Account Key".equalsIgnoreCase(identity) || key == null) {
                throw SynapseError.unsupported(
                        "COPY INTO credentials other than a storage account key");
            }
            return new Spec(table.toString(), columns, urls, key);
        }
    }

    private final FakeSynapse fake;
    private final Connection pg;
    private final Spec spec;

    CopyInto(FakeSynapse fake, Connection pg, Spec spec) {
        this.fake = fake;
        this.pg = pg;
        this.spec = spec;
    }

    /** Loads every file; the number of rows loaded. */
    long run() throws SynapseError {
        long rows = 0;
        for (String url : spec.urls()) {
            Path local = download(url);
            try {
                rows += load(local);
            } catch (SQLException e) {
                throw Tsql.error(e);
            } finally {
                try {
                    Files.deleteIfExists(local);
                } catch (IOException ignored) {
                    // a temporary file
                }
            }
        }
        return rows;
    }

    private Path download(String url) throws SynapseError {
        String endpoint = fake.blobEndpoint();
        if (!url.startsWith(endpoint + "/")) {
            throw new SynapseError(
                    105200,
                    "COPY statement failed because the location '"
                            + url
                            + "' is not a storage account this fake reaches ("
                            + endpoint
                            + ").");
        }
        String rest = url.substring(endpoint.length() + 1);
        int slash = rest.indexOf('/');
        String container = rest.substring(0, slash);
        String blob = rest.substring(slash + 1);
        String account = endpoint.substring(endpoint.lastIndexOf('/') + 1);
        BlobContainerClient client =
                new BlobServiceClientBuilder()
                        .endpoint(endpoint)
                        .credential(new StorageSharedKeyCredential(account, spec.key()))
                        .buildClient()
                        .getBlobContainerClient(container);
        try {
            Path local = Files.createTempFile("fake-synapse-copy-", ".parquet");
            Files.write(local, client.getBlobClient(blob).downloadContent().toBytes());
            return local;
        } catch (BlobStorageException e) {
            throw new SynapseError(
                    105200,
                    "COPY statement failed: reading '"
                            + url
                            + "' failed with HTTP "
                            + e.getStatusCode()
                            + " ("
                            + e.getErrorCode()
                            + ").");
        } catch (IOException e) {
            throw new SynapseError(105200, "COPY statement failed: " + e.getMessage());
        }
    }

    private long load(Path file) throws SQLException, SynapseError {
        try (Connection duck = DuckDb.reader();
                Statement st = duck.createStatement()) {
            st.execute("SET TimeZone = 'UTC'");
            String source = "read_parquet('" + file.toString().replace("'", "''") + "')";
            List<String> fileColumns = new ArrayList<>();
            List<Boolean> binary = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM " + source)) {
                while (rs.next()) {
                    fileColumns.add(rs.getString("column_name"));
                    binary.add(rs.getString("column_type").toUpperCase(Locale.ROOT).equals("BLOB"));
                }
            }
            if (fileColumns.size() != spec.columns().size()) {
                throw new SynapseError(
                        13812,
                        "COPY statement failed: the file has "
                                + fileColumns.size()
                                + " columns and the column list "
                                + spec.columns().size()
                                + ".");
            }
            List<String> selects = new ArrayList<>();
            for (int c = 0; c < fileColumns.size(); c++) {
                String q = Tsql.quote(fileColumns.get(c));
                selects.add(binary.get(c) ? q : "CAST(" + q + " AS VARCHAR)");
            }
            String insert =
                    "INSERT INTO "
                            + spec.table()
                            + " ("
                            + String.join(", ", spec.columns().stream().map(Tsql::quote).toList())
                            + ") VALUES ("
                            + String.join(", ", spec.columns().stream().map(x -> "?").toList())
                            + ")";
            long count = 0;
            try (ResultSet rs =
                            st.executeQuery(
                                    "SELECT " + String.join(", ", selects) + " FROM " + source);
                    PreparedStatement out = pg.prepareStatement(insert)) {
                int pending = 0;
                while (rs.next()) {
                    for (int c = 0; c < selects.size(); c++) {
                        if (binary.get(c)) {
                            out.setBytes(c + 1, rs.getBytes(c + 1));
                        } else {
                            out.setString(c + 1, rs.getString(c + 1));
                        }
                    }
                    out.addBatch();
                    count++;
                    if (++pending == BATCH) {
                        out.executeBatch();
                        pending = 0;
                    }
                }
                if (pending > 0) {
                    out.executeBatch();
                }
            } catch (BatchUpdateException e) {
                throw e.getNextException() != null ? e.getNextException() : e;
            }
            return count;
        }
    }
}
