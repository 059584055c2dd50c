package io.skippr.sinks.redshift;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The twin's PostgreSQL expressions for Redshift's functions, nested, quoted and left alone. */
class RedshiftFunctionsTest {
    @Test
    void strtolOfHexIsABitCast() {
        assertThat(RedshiftFunctions.translate("SELECT strtol(substr(md5(\"a,b\"), 1, 15), 16)"))
                .isEqualTo(
                        "SELECT ('x' || lpad(substr(md5(\"a,b\"), 1, 15), 16, '0'))::bit(64)::bigint");
    }

    @Test
    void datediffInDaysAndMicroseconds() {
        assertThat(RedshiftFunctions.translate("DATEDIFF(day, DATE '1970-01-01', \"d\")"))
                .isEqualTo("((\"d\")::date - (DATE '1970-01-01')::date)");
        assertThat(
                        RedshiftFunctions.translate(
                                "md5(CAST(DATEDIFF(microsecond, TIME '00:00:00', \"t\") AS"
                                        + " VARCHAR))"))
                .isEqualTo(
                        "md5(CAST(CAST(extract(epoch FROM ((\"t\") - (TIME '00:00:00'))) *"
                                + " 1000000 AS bigint) AS VARCHAR))");
    }

    @Test
    void fromVarbyteHexAndSysdate() {
        assertThat(RedshiftFunctions.translate("SELECT from_varbyte(\"p\", 'hex'), SYSDATE"))
                .isEqualTo("SELECT encode(\"p\", 'hex'), LOCALTIMESTAMP");
    }

    @Test
    void literalsQuotedNamesAndOtherFormsAreLeftAlone() {
        String sql =
                "SELECT 'strtol(x, 16)', \"sysdate\", \"datediff\"(1), strtol('z', 10),"
                        + " DATEDIFF(week, a, b)";
        assertThat(RedshiftFunctions.translate(sql)).isEqualTo(sql);
    }
}
