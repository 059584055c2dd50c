package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Row;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.Undecodable;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The binary COPY read against the text read it replaced ({@link TextRow}): the same split's rows,
 * read both ways, are the same records (values with their Java classes, positions, keys, row
 * numbers; an undecodable row's payload and error), over a corpus of every type family with its
 * edge values, and for key ranges, resumed reads after hostile key values, tables without a key,
 * and cursor windows with hostile bounds.
 */
class BinaryReadTest {
    private static String schema;

    /** Key text with quotes, backslashes, the placeholder, separators and non-ASCII. */
    private static final List<String> HOSTILE =
            List.of(
                    "plain",
                    "it's",
                    "''",
                    "back\\slash\\",
                    "\\'; DROP TABLE x; --",
                    "?",
                    "a,b|c=d",
                    "E'x'",
                    "Grüße 世界 🌍",
                    "$$dollar$$",
                    "\"dq\"",
                    " lead and trail ");

    @BeforeAll
    static void corpus() throws Exception {
        schema = PgTestDatabase.createSchema("skippr_binary_");
        String s = Sql.quote(schema);
        PgTestDatabase.exec(
                "CREATE TYPE " + s + ".mood AS ENUM ('sad', 'happy')",
                "CREATE DOMAIN " + s + ".positive AS int4 CHECK (VALUE > 0)",
                "CREATE DOMAIN " + s + ".label AS varchar(10)",
                "CREATE TABLE "
                        + s
                        + ".types (id int8 PRIMARY KEY, i2 int2, i4 int4, i8 int8, f4 float4,"
                        + " f8 float8, dc numeric(10,2), num numeric, neg numeric(5,-2), b bool,"
                        + " tx text, vc varchar(20), ch char(4), nm name, qc \"char\", js json,"
                        + " jb jsonb, u uuid, bin bytea, d date, tm time, ttz timetz,"
                        + " ts timestamp, tz timestamptz, iv interval, ip inet, cid cidr,"
                        + " mn money, arr int4[], tarr text[], md "
                        + s
                        + ".mood, dom "
                        + s
                        + ".positive, lbl "
                        + s
                        + ".label, rg int4range, pt point, mac macaddr, bits varbit,"
                        + " tsv tsvector, x xml, oi oid)",
                "INSERT INTO "
                        + s
                        + ".types VALUES"
                        + " (1, -32768, -2147483648, -9223372036854775808, 'NaN', 'NaN', -12345678.91,"
                        + " 0, -12300, false, '', '', '', '', 'a', '[]', '{}',"
                        + " '00000000-0000-0000-0000-000000000000', '', '4713-01-01 BC',"
                        + " '00:00:00', '00:00:00+00', '4713-01-01 00:00:00 BC',"
                        + " '4713-01-01 00:00:00+00 BC', '0 seconds', '1.2.3.4', '10.0.0.0/8',"
                        + " '-1.5', '{}', '{}', 'sad', 1, '', 'empty', '(0,0)', '00:00:00:00:00:00',"
                        + " B'', '', '<a/>', 0),"
                        + " (2, 32767, 2147483647, 9223372036854775807, 'Infinity', '-Infinity',"
                        + " 99999999.99, 123456789012345678901234567890.123456789012345678901234567890,"
                        + " 9999900, true, 'Grüße, 世界 🌍 \"q\" ''s \\ tab\there', 'héllo',"
                        + " 'ab', 'nämé', 'Z', '{\"k\": [1, \"ü\"]}', '{\"b\": 2, \"a\": [1.50, null]}',"
                        + " 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\\xdeadbeef00',"
                        + " '5874897-12-31', '24:00:00', '23:59:59.999999-15:59',"
                        + " '294276-12-31 23:59:59.999999', '294276-12-31 23:59:59.999999+00',"
                        + " '-178000000 years -1 mons -3 days -04:05:06.789', '::1', '2001:db8::/32',"
                        + " '92233720368547758.07', '{1,NULL,3}', '{\"a,b\",\"q\\\"\",NULL,\"\"}',"
                        + " 'happy', 2147483647, 'ten chars!', '[1,10)', '(1.5,-2.25)',"
                        + " 'ff:ff:ff:ff:ff:ff', B'10101', 'a:1 fat:2 cat', '<x>ü</x>',"
                        + " 4294967295),"
                        + " (3, 0, 0, 0, '-0', '-0', 0.5, 0.000000000000000000001, 0, NULL,"
                        + " E'line\\nbreak\\r\\\\', 'x', 'abcd', 'n', ' ', 'null', 'null',"
                        + " 'ffffffff-ffff-ffff-ffff-ffffffffffff', '\\x00ff', '1970-01-01',"
                        + " '12:34:56.000001', '12:34:56.5+05:30', '1999-12-31 23:59:59.999999',"
                        + " '2024-05-01 12:00:00.5+02', '1 day 02:03:04.5', '192.168.0.1/24',"
                        + " '192.168.0.0/24', '0', '{{1,2},{3,4}}', '{}', NULL, NULL, 'x',"
                        + " 'empty', '(0,0)', '08:00:2b:01:02:03', B'1', 'a', '', 1),"
                        + " (4, 1, 1, 1, 1.17549435e-38, 4.9e-324, 0.01, 1e-20, 100, true, 'x',"
                        + " 'x', 'x', 'x', 'x', '1', '1', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', NULL,"
                        + " '2000-01-01', '00:00:00.000001', '00:00:00-00:00:01',"
                        + " '2000-01-01 00:00:00', '2000-01-01 00:00:00+00', '-1 days', NULL, NULL,"
                        + " NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
                        + " NULL),"
                        + " (5, 7, 7, 7, 3.4028235e38, 1.7976931348623157e308,"
                        + " 0, 1e100, -50, false, 'x', 'x', 'x', 'x', 'x', '1', '1',"
                        + " 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', NULL, '0001-01-01', NULL, NULL,"
                        + " '0001-01-01 00:00:00', '0001-01-01 00:00:00+00', NULL, NULL, NULL, NULL,"
                        + " NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
                // NULL in every column but the key
                "INSERT INTO " + s + ".types (id) VALUES (6)",
                // values without a Skippr representation: undecodable rows
                "INSERT INTO " + s + ".types (id, num, tx) VALUES (7, 'NaN', 'nan row')",
                "INSERT INTO " + s + ".types (id, num, d) VALUES (8, 'Infinity', 'infinity')",
                "INSERT INTO " + s + ".types (id, dc, ts) VALUES (9, 1, '-infinity')",
                "INSERT INTO " + s + ".types (id, num, tz) VALUES (10, '-Infinity', 'infinity')",
                "INSERT INTO " + s + ".types (id, d, ch) VALUES (11, '-infinity', 'pad')",
                // many ordinary rows, so rows span the reader's batches
                "INSERT INTO "
                        + s
                        + ".types (id, i4, f8, dc, num, tx, ch, jb, u, bin, d, tm, ts, tz, arr)"
                        + " SELECT i, i * 7919 % 100003 - 50000, i / 7.0, i * 1.25 - 9999,"
                        + " (i * 104729)::numeric / 997, repeat(chr(65 + i % 26), i % 300),"
                        + " chr(97 + i % 26), jsonb_build_object('i', i, 's', 'ü' || i),"
                        + " md5(i::text)::uuid, decode(md5(i::text), 'hex'),"
                        + " date '1900-01-01' + i * 13, time '00:00' + i * interval '1.000001 s',"
                        + " timestamp '1850-01-01' + i * interval '1 day 1.5 s',"
                        + " timestamptz '1850-01-01 00:00Z' + i * interval '17 hours 0.25 s',"
                        + " ARRAY[i, -i] FROM generate_series(100, 5100) i",
                "CREATE TABLE "
                        + s
                        + ".hostile (k text, n int, v text, c text, PRIMARY KEY (k, n))",
                "CREATE TABLE " + s + ".nokey (v text, n numeric)",
                "INSERT INTO "
                        + s
                        + ".nokey SELECT 'row ' || i, i / 3.0 FROM generate_series(1, 3000) i",
                "INSERT INTO " + s + ".nokey VALUES ('nan', 'NaN')");
        try (Connection c = PgTestDatabase.open();
                java.sql.PreparedStatement st =
                        c.prepareStatement("INSERT INTO " + s + ".hostile VALUES (?, ?, ?, ?)")) {
            for (int i = 0; i < HOSTILE.size(); i++) {
                for (int n = 0; n < 3; n++) {
                    st.setString(1, HOSTILE.get(i));
                    st.setInt(2, n);
                    st.setString(3, HOSTILE.get((i + n) % HOSTILE.size()));
                    st.setString(4, HOSTILE.get((i + 1) % HOSTILE.size()));
                    st.executeUpdate();
                }
            }
        }
    }

    @AfterAll
    static void drop() throws Exception {
        PgTestDatabase.dropSchema(schema);
    }

    @Test
    void everyTypeReadsAsTheTextPathReadIt() throws Exception {
        TableInfo table = describe("types", null);
        List<String> binary = binary(PostgresSplit.fresh("t#1", table, null, null, null));
        assertThat(binary).hasSize(11 + 5001).isEqualTo(text(table, null, null, null, null));
        assertThat(binary)
                .filteredOn(r -> r.startsWith("Undecodable"))
                .hasSize(5)
                .anySatisfy(r -> assertThat(r).contains("\"num\":\"NaN\"").contains("nan row"))
                .anySatisfy(r -> assertThat(r).contains("timestamp value -infinity"));
    }

    @Test
    void aKeyRangeReadsAsTheTextPathReadIt() throws Exception {
        TableInfo table = describe("types", null);
        List<String> binary = binary(PostgresSplit.fresh("t#2", table, -5L, 2000L, null));
        assertThat(binary).hasSize(11 + 1900).isEqualTo(text(table, -5L, 2000L, null, null));
    }

    @Test
    void hostileKeysRoundTripThroughPositionsAndResumedReads() throws Exception {
        TableInfo table = describe("hostile", null);
        List<String> all = binary(PostgresSplit.fresh("h#1", table, null, null, null));
        assertThat(all).hasSize(3 * HOSTILE.size()).isEqualTo(text(table, null, null, null, null));
        for (String key : HOSTILE) {
            // resume after (key, 1) as a restored split does: the key is written into the COPY
            List<String> last = List.of(key, "1");
            List<String> resumed =
                    binary(new PostgresSplit("h#2", table, null, null, null, last, 0, null, null));
            assertThat(resumed).isEqualTo(text(table, null, null, null, last));
            String position = "hostile|k=" + RowDecoder.escape(key) + ",n=1";
            int at = indexOfPosition(all, position);
            assertThat(at).as(position).isNotNegative();
            assertThat(withoutOrdinals(resumed))
                    .isEqualTo(withoutOrdinals(all.subList(at + 1, all.size())));
            assertThat(RowDecoder.keyOf(table, position)).isEqualTo(last);
        }
    }

    @Test
    void aTableWithoutAKeyReadsAsTheTextPathReadIt() throws Exception {
        TableInfo table = describe("nokey", null);
        List<String> binary = binary(PostgresSplit.fresh("n#1", table, null, null, null));
        assertThat(binary).hasSize(3001).isEqualTo(text(table, null, null, null, null));
        assertThat(binary.get(0)).contains("|#");
    }

    @Test
    void aCursorWindowWithHostileBoundsReadsAsTheTextPathReadIt() throws Exception {
        TableInfo table = describe("hostile", "c");
        for (int i = 0; i + 1 < HOSTILE.size(); i++) {
            CursorWindow window = new CursorWindow(HOSTILE.get(i), HOSTILE.get(i + 1), i == 0);
            List<String> binary = binary(PostgresSplit.fresh("c#" + i, table, null, null, window));
            assertThat(binary).isEqualTo(text(table, null, null, window, null));
        }
    }

    /** Records without their row numbers, which count from where a read starts. */
    private static List<String> withoutOrdinals(List<String> records) {
        return records.stream().map(r -> r.replaceAll(" ordinal=[0-9]+$", "")).toList();
    }

    private static int indexOfPosition(List<String> records, String position) {
        for (int i = 0; i < records.size(); i++) {
            if (records.get(i).contains(" position=" + position + " ")) {
                return i;
            }
        }
        return -1;
    }

    private static TableInfo describe(String table, String cursor) throws Exception {
        try (Connection c = PgTestDatabase.open()) {
            return PostgresCatalog.describe(c, schema, table, cursor);
        }
    }

    /** The split's records as the reader reads them, through its binary COPY. */
    private static List<String> binary(PostgresSplit split) throws Exception {
        List<String> out = new ArrayList<>();
        try (PostgresSplitReader reader =
                new PostgresSplitReader(PgTestDatabase.connection(), false)) {
            reader.handleSplitsChanges(new SplitsAddition<>(List.of(split)));
            while (true) {
                RecordsWithSplitIds<ReadRecord> batch = reader.fetch();
                while (batch.nextSplit() != null) {
                    ReadRecord record;
                    while ((record = batch.nextRecordFromSplit()) != null) {
                        if (record.record() instanceof Row
                                || record.record() instanceof Undecodable) {
                            out.add(show(record));
                        }
                    }
                }
                if (batch.finishedSplits().contains(split.splitId())) {
                    return out;
                }
            }
        }
    }

    /** The same split read through the text protocol and decoded as the source did before. */
    private static List<String> text(
            TableInfo table, Long keyFrom, Long keyTo, CursorWindow window, List<String> last)
            throws Exception {
        PostgresSplit split =
                new PostgresSplit("text", table, keyFrom, keyTo, window, last, 0, null, null);
        RowOrder order = RowOrder.of(table, true).of(split);
        RowDecoder decoder = new RowDecoder(table, order);
        List<String> out = new ArrayList<>();
        try (Connection c = PgTestDatabase.open();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.setFetchSize(500);
            try (ResultSet rs = st.executeQuery(SplitQuery.of(split, null, order).select())) {
                long ordinal = 0;
                while (rs.next()) {
                    out.add(show(decoder.decode(new TextRow(rs), ++ordinal)));
                }
            }
            c.commit();
        }
        return out;
    }

    /** A record with each value's class and value, byte arrays in hex. */
    private static String show(ReadRecord read) {
        SourceRecord record = read.record();
        StringBuilder out = new StringBuilder();
        if (record instanceof Row row) {
            out.append("Row position=").append(row.position()).append(" values=");
            for (Object v : row.values()) {
                out.append(v == null ? "null" : v.getClass().getSimpleName())
                        .append(':')
                        .append(v instanceof byte[] b ? HexFormat.of().formatHex(b) : v)
                        .append(" ; ");
            }
        } else if (record instanceof Undecodable u) {
            out.append("Undecodable position=")
                    .append(u.position())
                    .append(" payload=")
                    .append(u.payload())
                    .append(" error=")
                    .append(u.error());
        }
        return out.append(" key=")
                .append(read.key())
                .append(" ordinal=")
                .append(read.ordinal())
                .toString();
    }
}
