package io.skippr.sinks.bigquery.fake;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The fake's PostgreSQL expressions for GoogleSQL's functions, nested, quoted and left alone. */
class GoogleSqlFunctionsTest {
    @Test
    void md5HexAndTheHexCastOfASum() throws Exception {
        assertThat(
                        GoogleSql.translate(
                                        "SELECT CAST(SUM(CAST(CAST('0x' || SUBSTR(TO_HEX(MD5(`a`)),"
                                                + " 1, 15) AS INT64) AS BIGNUMERIC)) AS STRING)"
                                                + " FROM `d`.`t`")
                                .statements())
                .containsExactly(
                        "SELECT CAST(SUM(CAST(('x' || lpad(SUBSTR(encode(decode(md5(\"a\"),"
                                + " 'hex'), 'hex'), 1, 15), 16, '0'))::bit(64)::bigint AS"
                                + " numeric)) AS text) FROM \"d\".\"t\"");
    }

    @Test
    void datesTimesAndTimestamps() throws Exception {
        assertThat(
                        GoogleSql.translate(
                                        "SELECT UNIX_DATE(`d`), TIME_DIFF(`t`, TIME '00:00:00',"
                                                + " MICROSECOND), DATETIME_DIFF(`l`, DATETIME"
                                                + " '1970-01-01 00:00:00', MICROSECOND),"
                                                + " UNIX_MICROS(`z`)")
                                .statements())
                .containsExactly(
                        "SELECT ((\"d\") - DATE '1970-01-01'), CAST(extract(epoch FROM ((\"t\") -"
                                + " (TIME '00:00:00'))) * 1000000 AS bigint), CAST(extract(epoch"
                                + " FROM ((\"l\") - (timestamp '1970-01-01 00:00:00'))) * 1000000"
                                + " AS bigint), CAST(extract(epoch FROM \"z\") * 1000000 AS"
                                + " bigint)");
    }

    @Test
    void fifteenDigitsSplitPartsAndTimestampsAsText() throws Exception {
        assertThat(
                        GoogleSql.translate(
                                        "SELECT COALESCE(SPLIT(FORMAT('%.15g', `f`), 'e')"
                                                + "[SAFE_OFFSET(1)], ''),"
                                                + " FORMAT_TIMESTAMP('%Y-%m-%d %H:%M:%S',"
                                                + " `committed_at`, 'UTC'), CURRENT_TIMESTAMP()")
                                .statements())
                .containsExactly(
                        "SELECT COALESCE((string_to_array(CASE WHEN (\"f\") = 0 OR (\"f\") IN"
                                + " ('NaN', 'Infinity', '-Infinity') THEN lower(CAST((\"f\") AS"
                                + " text)) ELSE CAST(CAST((\"f\") AS numeric) AS text) END,"
                                + " 'e'))[2], ''), to_char((\"committed_at\") AT TIME ZONE 'UTC',"
                                + " 'YYYY-MM-DD HH24:MI:SS'), CURRENT_TIMESTAMP");
    }

    @Test
    void literalsQuotedNamesAndOtherFormsAreLeftAlone() throws Exception {
        String sql = "SELECT 'md5(x)', `to_hex`, FORMAT('%d', 1), CAST('12' AS INT64)";
        assertThat(GoogleSql.translate(sql).statements())
                .containsExactly(
                        "SELECT 'md5(x)', \"to_hex\", FORMAT('%d', 1), CAST('12' AS bigint)");
    }
}
