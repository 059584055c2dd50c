package io.skippr.sources.postgres.cdc;

import static io.skippr.sources.postgres.cdc.PgOutputDecoderTest.COMMIT_MICROS;
import static io.skippr.sources.postgres.cdc.PgOutputDecoderTest.decode;
import static io.skippr.sources.postgres.cdc.PgOutputDecoderTest.relation;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.sources.postgres.cdc.PgOutputDecoderTest.Message;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An open transaction over its in-memory limit spills to a file, read back in order, deleted. */
class TransactionSpillTest {
    private static final int LIMIT = 10;
    private static final int CHANGES = 1_000;

    @TempDir Path dir;

    @Test
    void aTransactionOverTheLimitSpillsAndComesBackEqualAndInOrderThenTheFileIsGone()
            throws Exception {
        List<Change> expected =
                read(assemble(new TransactionAssembler(new SpillSettings(CHANGES, dir)), null));
        assertThat(files()).isEmpty();
        assertThat(expected).hasSize(CHANGES);

        TransactionAssembler assembler = new TransactionAssembler(new SpillSettings(LIMIT, dir));
        List<Integer> inMemory = new ArrayList<>();
        Transaction tx = assemble(assembler, inMemory);
        assertThat(inMemory).hasSize(CHANGES).allMatch(n -> n <= LIMIT);
        assertThat(inMemory.get(CHANGES - 1)).isEqualTo(LIMIT);
        assertThat(tx.changes().size()).isEqualTo(CHANGES);
        assertThat(tx.changes().inMemory()).isEqualTo(LIMIT);
        Path file = tx.changes().file();
        assertThat(files()).containsExactly(file);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");

        List<Change> got = new ArrayList<>();
        Iterator<Change> changes = tx.changes().iterator();
        while (changes.hasNext()) {
            assertThat(files()).as("the file while reading").containsExactly(file);
            got.add(changes.next());
        }
        assertThat(got).containsExactlyElementsOf(expected);
        assertThat(files()).as("the file once read to the end").isEmpty();
        assertThatThrownBy(() -> tx.changes().iterator())
                .hasMessage("the changes of transaction 77 can be read once only");
        tx.close();
    }

    @Test
    void closingATransactionReadHalfOrNotAtAllDeletesItsFile() throws Exception {
        TransactionAssembler assembler = new TransactionAssembler(new SpillSettings(LIMIT, dir));
        try (Transaction unread = assemble(assembler, null)) {
            assertThat(files()).hasSize(1);
        }
        assertThat(files()).isEmpty();

        Transaction half = assemble(assembler, null);
        Iterator<Change> changes = half.changes().iterator();
        for (int i = 0; i < CHANGES / 2; i++) {
            changes.next();
        }
        assertThat(files()).hasSize(1);
        half.close();
        assertThat(files()).isEmpty();
        assertThatThrownBy(changes::next).hasMessage("the changes of transaction 77 were closed");
    }

    @Test
    void aStreamClosedInsideATransactionDeletesItsFile() throws Exception {
        TransactionAssembler assembler = new TransactionAssembler(new SpillSettings(LIMIT, dir));
        begin(assembler);
        for (int i = 0; i < 2 * LIMIT; i++) {
            assembler.accept(10 + i, insert(i));
        }
        assertThat(files()).hasSize(1);
        assertThat(assembler.idle()).isFalse();
        assembler.close();
        assertThat(files()).isEmpty();
        assertThat(assembler.idle()).isTrue();
        assertThat(assembler.inMemory()).isZero();
    }

    @Test
    void withALimitOfZeroEveryChangeSpills() throws Exception {
        TransactionAssembler assembler = new TransactionAssembler(new SpillSettings(0, dir));
        List<Change> got = read(assemble(assembler, null));
        assertThat(got).hasSize(CHANGES);
        assertThat(got.get(0).newValues().get(1).value()).isEqualTo(new BigDecimal("0.00"));
        assertThat(files()).isEmpty();
    }

    /**
     * One transaction of {@link #CHANGES} changes: inserts, updates with an old key, a NULL and an
     * unchanged value, deletes, the relation described again with other names halfway, and a
     * truncate of two tables last; {@code inMemory} gets the assembler's count after each.
     */
    private Transaction assemble(TransactionAssembler assembler, List<Integer> inMemory)
            throws Exception {
        begin(assembler);
        assembler.accept(2, decode(relation(16384, "s", "t")));
        assembler.accept(3, decode(relation(16385, "s", "other")));
        for (int i = 0; i < CHANGES - 2; i++) {
            if (i == CHANGES / 2) {
                assembler.accept(4, decode(relation(16384, "s", "t_renamed")));
            }
            long lsn = 100 + i;
            PgOutputMessage change =
                    switch (i % 3) {
                        case 0 -> insert(i);
                        case 1 ->
                                decode(
                                        new Message('U')
                                                .int32(16384)
                                                .int8('K')
                                                .tuple(Integer.toString(i - 1), null, null)
                                                .int8('N')
                                                .tuple(Integer.toString(i), null, "u"));
                        default ->
                                decode(
                                        new Message('D')
                                                .int32(16384)
                                                .int8('O')
                                                .tuple(Integer.toString(i), "NaN", "é"));
                    };
            assertThat(assembler.accept(lsn, change)).isNull();
            record(assembler, inMemory);
        }
        assembler.accept(
                5_000, decode(new Message('T').int32(2).int8(1).int32(16384).int32(16385)));
        record(assembler, inMemory);
        record(assembler, inMemory);
        Transaction tx =
                assembler.accept(
                        6_000,
                        decode(
                                new Message('C')
                                        .int8(0)
                                        .int64(300)
                                        .int64(350)
                                        .int64(COMMIT_MICROS)));
        assertThat(tx.xid()).isEqualTo(77);
        assertThat(assembler.inMemory()).isZero();
        return tx;
    }

    private static void begin(TransactionAssembler assembler) throws Exception {
        assembler.accept(1, decode(new Message('B').int64(300).int64(COMMIT_MICROS).int32(77)));
        assembler.accept(2, decode(relation(16384, "s", "t")));
    }

    private static PgOutputMessage insert(int i) throws IOException {
        return decode(
                new Message('I')
                        .int32(16384)
                        .int8('N')
                        .tuple(Integer.toString(i), i + ".00", "row " + i));
    }

    private static void record(TransactionAssembler assembler, List<Integer> inMemory) {
        if (inMemory != null) {
            inMemory.add(assembler.inMemory());
        }
    }

    private static List<Change> read(Transaction tx) throws IOException {
        return ReadTransaction.of(tx).changes();
    }

    private List<Path> files() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }
}
