package io.skippr.bench;

import java.sql.Types;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.api.common.typeinfo.SqlTimeTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.connector.jdbc.JdbcConnectionOptions;
import org.apache.flink.connector.jdbc.JdbcExecutionOptions;
import org.apache.flink.connector.jdbc.core.datastream.sink.JdbcSink;
import org.apache.flink.connector.jdbc.core.datastream.source.JdbcSource;
import org.apache.flink.connector.jdbc.core.datastream.source.reader.extractor.ResultExtractor;
import org.apache.flink.connector.jdbc.split.JdbcNumericBetweenParametersProvider;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;

/**
 * The peer of {@code bench/pg-load}: {@code bench_src.src} copied into an existing table of the
 * same columns the way a Flink user writes it without Skippr, from the connector's documented
 * builders and their defaults: {@link JdbcSource} reading key ranges in parallel ({@code id
 * BETWEEN ? AND ?}, four ranges per subtask), {@link JdbcSink} at least once with plain JDBC
 * batches of the default size, on the embedded cluster that {@code getExecutionEnvironment}
 * starts.
 *
 * <p>Arguments: JDBC URL, user, password, target table (quoted, schema-qualified), parallelism,
 * highest id.
 */
public final class FlinkJdbcPeer {
    private static final String COLUMNS =
            "\"id\", \"customer_id\", \"amount\", \"status\", \"created_at\"";

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String user = args[1];
        String password = args[2];
        String target = args[3];
        int parallelism = Integer.parseInt(args[4]);
        long maxId = Long.parseLong(args[5]);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);

        String select =
                "SELECT " + COLUMNS + " FROM \"bench_src\".\"src\" WHERE \"id\" BETWEEN ? AND ?";
        String insert = "INSERT INTO " + target + " (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?)";
        TypeInformation<Row> rowType =
                new RowTypeInfo(
                        BasicTypeInfo.LONG_TYPE_INFO,
                        BasicTypeInfo.INT_TYPE_INFO,
                        BasicTypeInfo.BIG_DEC_TYPE_INFO,
                        BasicTypeInfo.STRING_TYPE_INFO,
                        SqlTimeTypeInfo.TIMESTAMP);
        JdbcSource<Row> source =
                JdbcSource.<Row>builder()
                        .setDBUrl(url)
                        .setDriverName("org.postgresql.Driver")
                        .setUsername(user)
                        .setPassword(password)
                        .setSql(select)
                        .setJdbcParameterValuesProvider(
                                new JdbcNumericBetweenParametersProvider(1, Math.max(1, maxId))
                                        .ofBatchNum(4 * parallelism))
                        .setResultExtractor(ResultExtractor.ofRowResultExtractor())
                        .setTypeInformation(rowType)
                        .build();

        JdbcSink<Row> sink =
                JdbcSink.<Row>builder()
                        .withQueryStatement(
                                insert,
                                (statement, row) -> {
                                    statement.setObject(1, row.getField(0), Types.BIGINT);
                                    statement.setObject(2, row.getField(1), Types.INTEGER);
                                    statement.setObject(3, row.getField(2), Types.NUMERIC);
                                    statement.setObject(4, row.getField(3), Types.VARCHAR);
                                    statement.setObject(5, row.getField(4), Types.TIMESTAMP);
                                })
                        .withExecutionOptions(JdbcExecutionOptions.defaults())
                        .buildAtLeastOnce(
                                new JdbcConnectionOptions.JdbcConnectionOptionsBuilder()
                                        .withUrl(url)
                                        .withDriverName("org.postgresql.Driver")
                                        .withUsername(user)
                                        .withPassword(password)
                                        .build());

        env.fromSource(source, WatermarkStrategy.noWatermarks(), "jdbc-source")
                .returns(rowType)
                .sinkTo(sink);
        env.execute("flink-jdbc-peer");
    }
}
