/**
 * Change data capture from PostgreSQL (issue 18), the low-level part: publications and logical
 * slots ({@link io.skippr.sources.postgres.cdc.Slots}), the slot's exported snapshot ({@link
 * io.skippr.sources.postgres.cdc.SlotSnapshot}) and the stream of committed transactions ({@link
 * io.skippr.sources.postgres.cdc.ChangeStream}). The Flink source around them, for {@code
 * replication_method: cdc}, is {@code io.skippr.sources.postgres.CdcSource}.
 *
 * <h2>Decoder: pgjdbc's replication API with Skippr's own pgoutput decoder, not Debezium</h2>
 *
 * <p>Debezium's PostgreSQL connector (io.debezium:debezium-connector-postgres 3.6.1.Final) decodes
 * pgoutput in {@code PgOutputMessageDecoder}, but that class is built around the connector, not
 * usable as a library: it is constructed from a {@code MessageDecoderContext} holding the
 * connector's {@code PostgresConnectorConfig} and {@code PostgresSchema}, resolves types through
 * its {@code TypeRegistry} (which queries the catalog itself) and turns values into Kafka Connect
 * {@code Schema}/{@code Struct} types, so it needs debezium-core, Kafka's connect-api and the
 * connector's configuration machinery on the class path of every TaskManager, and would give values
 * in Connect's representation that Skippr would convert a second time. Running it through
 * debezium-embedded instead hands over the loop, the offsets and the slot's flushing to Debezium's
 * engine, which confirms LSNs on its own schedule: Skippr's guarantee needs the confirmed LSN to
 * move only when the destination committed (issue 18, point 3).
 *
 * <p>pgjdbc (already on the class path) has the replication protocol: {@code PGReplicationStream}
 * reads XLogData, answers keepalives and sends status updates with the flushed LSN the caller set,
 * never more once its automatic flush is off ({@code withAutomaticFlush(false)}: pgjdbc 42.7's
 * default reports the server's position as flushed on a keepalive once everything received was
 * flushed, which moved the slot without a confirm; {@code ChangeStreamITCase} caught it). pgoutput
 * protocol 1 is ten small messages (Begin, Commit, Origin, Relation, Type, Insert, Update, Delete,
 * Truncate, Message), documented in PostgreSQL's "Logical Replication Message Formats"; {@link
 * io.skippr.sources.postgres.cdc.PgOutputDecoder} reads them in about 150 lines with unit tests on
 * hand-built bytes. Values are asked for as text ({@code binary} off, the default), read by {@link
 * io.skippr.sources.postgres.cdc.PgText} into the Java classes of the Skippr type that the source's
 * own {@code PgTypes} mapping gives the column, so snapshot rows and change rows carry the same
 * values.
 *
 * <h2>What the stream guarantees</h2>
 *
 * <ul>
 *   <li>Whole transactions in commit order: protocol 1 sends a transaction at its commit; {@link
 *       io.skippr.sources.postgres.cdc.TransactionAssembler} holds its changes until the Commit
 *       message, with bounded memory (below).
 *   <li>A TOASTed value an update left unchanged is {@code UNCHANGED}, never null.
 *   <li>Old values per replica identity: the key under DEFAULT (only when the key changed for an
 *       update), the whole old row under FULL.
 *   <li>The slot's confirmed flush LSN moves only by {@code ChangeStream.confirm}; a new stream
 *       re-delivers every transaction whose commit is at or after it. While only unpublished tables
 *       change, {@code ChangeStream.idleLsn} moves with the server's keepalives: confirming it
 *       (once everything delivered is in the destination) keeps the slot from holding WAL.
 * </ul>
 *
 * <p>Types: built-in types by their fixed oid, domains through the catalog as their base type (as
 * the snapshot reads them); enums, arrays and other types as their text (STRING).
 *
 * <h2>Large transactions: spilled to a file, not streamed with protocol 2</h2>
 *
 * <p>An open transaction keeps its first {@link io.skippr.sources.postgres.cdc.SpillSettings}
 * {@code maxChangesInMemory} changes (10,000 by default) in memory and appends the rest to a file
 * of its own under the caller's directory ({@code java.io.tmpdir} by default, created owner-only),
 * as pgoutput sent them: per cell its kind and text bytes, with the index of the relation as
 * described at that point, so a relation described again mid-transaction replays right and values
 * are parsed once, when read back. {@link io.skippr.sources.postgres.cdc.Transaction#changes()}
 * replays memory then file through a read-once iterator and deletes the file at its end, or when
 * the transaction is closed; a stream closed mid-transaction deletes its open file. The contract is
 * unchanged: whole transactions in commit order, confirm its {@code endLsn} once it is in the
 * destination. Protocol 2's streaming of in-progress transactions (PostgreSQL 14+) would move the
 * spill to the destination's side: it interleaves the chunks of concurrent transactions, sends
 * aborts of transactions (and subtransactions) already partly delivered, and a transaction's
 * changes would reach the caller before it is known to commit, so the caller would have to stage
 * them anyway; spilling keeps all of that out of the contract at the cost of local disk the size of
 * the largest transaction. {@code ChangeStreamITCase} reads a 1,000,000-row transaction with 10,000
 * in memory in 16 to 30 s on a shared 2-core machine.
 *
 * <p>A caller must poll {@code ChangeStream.next} (and read each transaction's changes between
 * polls) more often than the server's {@code wal_sender_timeout} (60 s by default): status updates
 * are only sent while it polls.
 */
package io.skippr.sources.postgres.cdc;
