package io.skippr.sources.postgres.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.DataType;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** pgoutput protocol 1 messages built byte by byte as PostgreSQL's docs define them. */
class PgOutputDecoderTest {
    /** 2024-05-01T10:00:00.123456Z in microseconds since 2000-01-01. */
    static final long COMMIT_MICROS =
            (Instant.parse("2024-05-01T10:00:00.123456Z").getEpochSecond() - 946_684_800L)
                            * 1_000_000L
                    + 123_456L;

    @Test
    void beginAndCommit() throws IOException {
        Message begin = new Message('B').int64(0x16_B374D848L).int64(COMMIT_MICROS).int32(-2);
        assertThat(decode(begin))
                .isEqualTo(new PgOutputMessage.Begin(0x16_B374D848L, COMMIT_MICROS, 4294967294L));
        Message commit = new Message('C').int8(0).int64(100).int64(180).int64(COMMIT_MICROS);
        assertThat(decode(commit))
                .isEqualTo(new PgOutputMessage.Commit(0, 100, 180, COMMIT_MICROS));
        assertThat(TransactionAssembler.instant(COMMIT_MICROS))
                .isEqualTo(Instant.parse("2024-05-01T10:00:00.123456Z"));
    }

    @Test
    void relationWithAnEmptyNamespaceIsPgCatalogAndKeyFlagsAreRead() throws IOException {
        assertThat(decode(relation(16384, "", "Ödd \"name\"")))
                .isEqualTo(
                        new PgOutputMessage.Relation(
                                16384,
                                "pg_catalog",
                                "Ödd \"name\"",
                                'd',
                                List.of(
                                        new PgOutputMessage.Column(true, "id", 23, -1),
                                        new PgOutputMessage.Column(
                                                false, "amount", 1700, (10 << 16 | 2) + 4),
                                        new PgOutputMessage.Column(false, "doc", 25, -1))));
    }

    @Test
    void updateWithOldKeyNullAndUnchangedToast() throws IOException {
        Message update =
                new Message('U')
                        .int32(16384)
                        .int8('K')
                        .tuple("7", null, "u")
                        .int8('N')
                        .tuple("8", "12.50", "u");
        PgOutputMessage.Update decoded = (PgOutputMessage.Update) decode(update);
        assertThat(decoded.oldIsKey()).isTrue();
        assertThat(decoded.oldTuple().cells().get(1)).isSameAs(PgOutputMessage.Cell.NULL);
        assertThat(decoded.newTuple().cells().get(2)).isSameAs(PgOutputMessage.Cell.UNCHANGED);
        assertThat(new String(decoded.newTuple().cells().get(1).bytes(), StandardCharsets.UTF_8))
                .isEqualTo("12.50");

        PgOutputMessage.Update withoutOld =
                (PgOutputMessage.Update)
                        decode(new Message('U').int32(5).int8('N').tuple("1", null, "x"));
        assertThat(withoutOld.oldTuple()).isNull();
    }

    @Test
    void deleteWithFullOldRowAndTruncate() throws IOException {
        PgOutputMessage.Delete delete =
                (PgOutputMessage.Delete)
                        decode(new Message('D').int32(9).int8('O').tuple("1", "2", null));
        assertThat(delete.oldIsKey()).isFalse();
        assertThat(delete.oldTuple().cells()).hasSize(3);
        assertThat(decode(new Message('T').int32(2).int8(1).int32(9).int32(10)))
                .isEqualTo(new PgOutputMessage.Truncate(1, List.of(9, 10)));
    }

    @Test
    void assemblerTurnsMessagesIntoATransactionWithTypedValues() throws Exception {
        TransactionAssembler assembler = new TransactionAssembler(SpillSettings.defaults());
        assertThat(
                        assembler.accept(
                                1,
                                decode(new Message('B').int64(300).int64(COMMIT_MICROS).int32(77))))
                .isNull();
        assembler.accept(2, decode(relation(16384, "s", "t")));
        assembler.accept(
                3, decode(new Message('I').int32(16384).int8('N').tuple("1", "-3.10", "hi")));
        assembler.accept(4, decode(new Message('U').int32(16384).int8('N').tuple("1", "NaN", "u")));
        ReadTransaction tx =
                ReadTransaction.of(
                        assembler.accept(
                                5,
                                decode(
                                        new Message('C')
                                                .int8(0)
                                                .int64(300)
                                                .int64(350)
                                                .int64(COMMIT_MICROS))));
        assertThat(tx.xid()).isEqualTo(77);
        assertThat(tx.commitLsn()).isEqualTo(300);
        assertThat(tx.endLsn()).isEqualTo(350);
        assertThat(tx.changes()).hasSize(2);
        Change insert = tx.changes().get(0);
        assertThat(insert.op()).isEqualTo(Change.Op.INSERT);
        assertThat(insert.lsn()).isEqualTo(3);
        assertThat(insert.commitLsn()).isEqualTo(300);
        assertThat(insert.schema() + "." + insert.table()).isEqualTo("s.t");
        assertThat(insert.columns().get(1).type()).isEqualTo(DataType.decimal(10, 2));
        assertThat(insert.newValues().stream().map(ColumnValue::value))
                .containsExactly(1, new BigDecimal("-3.10"), "hi");
        Change update = tx.changes().get(1);
        assertThat(update.oldValues()).isEmpty();
        assertThat(update.newValues().get(1).problem())
                .isEqualTo("numeric NaN has no decimal value");
        assertThat(update.newValues().get(1).text()).isEqualTo("NaN");
        assertThat(update.newValues().get(2)).isSameAs(ColumnValue.UNCHANGED);
    }

    @Test
    void changeOfAnUnknownRelationOrOutsideATransactionFails() throws Exception {
        TransactionAssembler assembler = new TransactionAssembler(SpillSettings.defaults());
        PgOutputMessage insert = decode(new Message('I').int32(1).int8('N').tuple("1"));
        assertThatThrownBy(() -> assembler.accept(1, insert))
                .hasMessageStartingWith("message outside a transaction");
        assembler.accept(2, decode(new Message('B').int64(1).int64(1).int32(1)));
        assertThatThrownBy(() -> assembler.accept(3, insert))
                .hasMessageStartingWith("change of relation 1 before its Relation message");
    }

    @Test
    void truncatedAndUnknownMessagesAreRefused() {
        assertThatThrownBy(() -> decode(new Message('B').int64(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("pgoutput message ends early (9 bytes)");
        assertThatThrownBy(() -> decode(new Message('Z')))
                .hasMessage("unknown pgoutput message type 'Z' (90)");
    }

    @Test
    void textValuesOfEachTypeParse() throws Exception {
        assertThat(PgText.parse(DataType.Kind.BOOLEAN, "t")).isEqualTo(true);
        assertThat(PgText.parse(DataType.Kind.INT64, "-9223372036854775808"))
                .isEqualTo(Long.MIN_VALUE);
        assertThat(PgText.parse(DataType.Kind.FLOAT64, "-Infinity"))
                .isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(PgText.parse(DataType.Kind.BYTES, "\\x00ff10"))
                .isEqualTo(new byte[] {0, -1, 16});
        assertThat(PgText.parse(DataType.Kind.DATE, "0044-03-15 BC"))
                .isEqualTo(LocalDate.of(-43, 3, 15));
        assertThat(PgText.parse(DataType.Kind.TIMESTAMP, "2024-05-01 10:00:00"))
                .isEqualTo(LocalDateTime.of(2024, 5, 1, 10, 0));
        assertThat(PgText.parse(DataType.Kind.TIMESTAMP, "2024-05-01 10:00:00.5"))
                .isEqualTo(LocalDateTime.of(2024, 5, 1, 10, 0, 0, 500_000_000));
        assertThat(PgText.parse(DataType.Kind.TIMESTAMP_TZ, "2024-05-01 10:00:00.123456+00"))
                .isEqualTo(Instant.parse("2024-05-01T10:00:00.123456Z"));
        assertThat(PgText.parse(DataType.Kind.TIMESTAMP_TZ, "2024-05-01 15:30:00+05:30"))
                .isEqualTo(Instant.parse("2024-05-01T10:00:00Z"));
        assertThat(PgText.parse(DataType.Kind.TIMESTAMP_TZ, "1900-01-01 00:00:00-00:17:30"))
                .isEqualTo(Instant.parse("1900-01-01T00:17:30Z"));
        assertThatThrownBy(() -> PgText.parse(DataType.Kind.TIMESTAMP_TZ, "infinity"))
                .isInstanceOf(PgText.Unrepresentable.class)
                .hasMessage("timestamptz infinity has no Skippr value");
    }

    static Message relation(int oid, String schema, String table) throws IOException {
        return new Message('R')
                .int32(oid)
                .string(schema)
                .string(table)
                .int8('d')
                .int16(3)
                .int8(1)
                .string("id")
                .int32(23)
                .int32(-1)
                .int8(0)
                .string("amount")
                .int32(1700)
                .int32((10 << 16 | 2) + 4)
                .int8(0)
                .string("doc")
                .int32(25)
                .int32(-1);
    }

    static PgOutputMessage decode(Message message) {
        return PgOutputDecoder.decode(ByteBuffer.wrap(message.bytes()));
    }

    /** A message under construction, in network byte order. */
    static final class Message {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final DataOutputStream out = new DataOutputStream(bytes);

        Message(char type) {
            bytes.write(type);
        }

        Message int8(int v) throws IOException {
            out.writeByte(v);
            return this;
        }

        Message int16(int v) throws IOException {
            out.writeShort(v);
            return this;
        }

        Message int32(int v) throws IOException {
            out.writeInt(v);
            return this;
        }

        Message int64(long v) throws IOException {
            out.writeLong(v);
            return this;
        }

        Message string(String s) throws IOException {
            out.write(s.getBytes(StandardCharsets.UTF_8));
            out.writeByte(0);
            return this;
        }

        /** A tuple: null for a NULL, "u" for an unchanged TOASTed value, else text. */
        Message tuple(String... values) throws IOException {
            out.writeShort(values.length);
            for (String v : values) {
                if (v == null) {
                    out.writeByte('n');
                } else if (v.equals("u")) {
                    out.writeByte('u');
                } else {
                    byte[] text = v.getBytes(StandardCharsets.UTF_8);
                    out.writeByte('t');
                    out.writeInt(text.length);
                    out.write(text);
                }
            }
            return this;
        }

        byte[] bytes() {
            return bytes.toByteArray();
        }
    }
}
