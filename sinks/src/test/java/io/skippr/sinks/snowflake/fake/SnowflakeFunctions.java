package io.skippr.sinks.snowflake.fake;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Snowflake functions PostgreSQL lacks, or has with another meaning, as functions of the fake's own
 * schema ({@code "_fake"}) that {@link PostgresText} calls instead, each giving Snowflake's result
 * for the arguments it supports and failing with "not implemented by the fake Snowflake" for
 * others:
 *
 * <ul>
 *   <li>{@code DATEDIFF(DAY, date, date)} and {@code DATEDIFF(MICROSECOND, time, time)} (also of
 *       timestamps): the unit boundaries crossed, which for these units is the exact difference;
 *   <li>{@code DATE_PART(EPOCH_MICROSECOND, timestamp)}: microseconds since 1970-01-01 00:00:00 (of
 *       a TIMESTAMP_TZ, in UTC);
 *   <li>{@code TO_NUMBER(text, 'XX…')}: a hexadecimal text of at most as many digits as the
 *       format's X's, as a number;
 *   <li>{@code HEX_ENCODE(binary, case)}: hex, lower-case for case 0, upper-case for 1;
 *   <li>{@code TO_VARCHAR(float)}: a FLOAT as Snowflake prints it, to 15 significant digits
 *       (PostgreSQL's {@code extra_float_digits} 0, set for that call only: the fake's results keep
 *       every digit);
 *   <li>{@code CONVERT_TIMEZONE('UTC', timestamp_tz)}: the same instant (the fake keeps no offset;
 *       its sessions are in UTC).
 * </ul>
 *
 * <p>The unit of DATEDIFF and DATE_PART is a bare word in Snowflake; {@link PostgresText} passes it
 * as a string.
 */
final class SnowflakeFunctions {
    private static final String NOT_IMPLEMENTED =
            "RAISE EXCEPTION USING ERRCODE = '0A000', MESSAGE = format('Unsupported feature ''%s''"
                    + " (not implemented by the fake Snowflake).', ";

    private static final List<String> DDL =
            List.of(
                    "CREATE FUNCTION \"_fake\".datediff(unit text, a date, b date) RETURNS bigint"
                            + " LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN"
                            + " IF upper(unit) = 'DAY' THEN RETURN b - a; END IF; "
                            + NOT_IMPLEMENTED
                            + " 'DATEDIFF(' || unit || ', DATE, DATE)'); END $$",
                    "CREATE FUNCTION \"_fake\".datediff(unit text, a time, b time) RETURNS bigint"
                            + " LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN"
                            + " IF upper(unit) = 'MICROSECOND' THEN"
                            + " RETURN (extract(epoch FROM b) - extract(epoch FROM a)) * 1000000;"
                            + " END IF; "
                            + NOT_IMPLEMENTED
                            + " 'DATEDIFF(' || unit || ', TIME, TIME)'); END $$",
                    "CREATE FUNCTION \"_fake\".datediff(unit text, a timestamptz, b timestamptz)"
                            + " RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN"
                            + " IF upper(unit) = 'MICROSECOND' THEN"
                            + " RETURN (extract(epoch FROM b) - extract(epoch FROM a)) * 1000000;"
                            + " END IF; "
                            + NOT_IMPLEMENTED
                            + " 'DATEDIFF(' || unit || ', TIMESTAMP, TIMESTAMP)'); END $$",
                    "CREATE FUNCTION \"_fake\".date_part(part text, t timestamp) RETURNS bigint"
                            + " LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN"
                            + " IF upper(part) = 'EPOCH_MICROSECOND' THEN"
                            + " RETURN extract(epoch FROM t) * 1000000; END IF; "
                            + NOT_IMPLEMENTED
                            + " 'DATE_PART(' || part || ', TIMESTAMP_NTZ)'); END $$",
                    "CREATE FUNCTION \"_fake\".date_part(part text, t timestamptz) RETURNS bigint"
                            + " LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN"
                            + " IF upper(part) = 'EPOCH_MICROSECOND' THEN"
                            + " RETURN extract(epoch FROM t) * 1000000; END IF; "
                            + NOT_IMPLEMENTED
                            + " 'DATE_PART(' || part || ', TIMESTAMP_TZ)'); END $$",
                    "CREATE FUNCTION \"_fake\".to_number(t text, f text) RETURNS numeric"
                            + " LANGUAGE plpgsql IMMUTABLE AS $$ DECLARE n numeric := 0;"
                            + " d int; BEGIN"
                            + " IF f !~ '^[Xx]+$' THEN "
                            + NOT_IMPLEMENTED
                            + " 'TO_NUMBER(…, ''' || f || ''')'); END IF;"
                            + " IF t IS NULL THEN RETURN NULL; END IF;"
                            + " IF t !~ '^[0-9A-Fa-f]+$' OR length(t) > length(f) THEN"
                            + " RAISE EXCEPTION USING ERRCODE = '22018',"
                            + " MESSAGE = format('Numeric value ''%s'' is not recognized', t);"
                            + " END IF;"
                            + " FOR i IN 1..length(t) LOOP"
                            + " d := position(lower(substr(t, i, 1)) IN '0123456789abcdef') - 1;"
                            + " n := n * 16 + d; END LOOP; RETURN n; END $$",
                    "CREATE FUNCTION \"_fake\".hex_encode(b bytea, c int) RETURNS text"
                            + " LANGUAGE sql IMMUTABLE AS $$ SELECT CASE c WHEN 0 THEN"
                            + " encode(b, 'hex') ELSE upper(encode(b, 'hex')) END $$",
                    "CREATE FUNCTION \"_fake\".to_varchar(x double precision) RETURNS text"
                            + " LANGUAGE sql IMMUTABLE SET extra_float_digits = 0"
                            + " AS $$ SELECT CAST(x AS text) $$",
                    "CREATE FUNCTION \"_fake\".convert_timezone(zone text, t timestamptz)"
                            + " RETURNS timestamptz LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN"
                            + " IF upper(zone) = 'UTC' THEN RETURN t; END IF; "
                            + NOT_IMPLEMENTED
                            + " 'CONVERT_TIMEZONE(''' || zone || ''', …)'); END $$");

    private SnowflakeFunctions() {}

    /** Creates the functions in the backing database's {@code "_fake"} schema. */
    static void create(Statement st) throws SQLException {
        for (String ddl : DDL) {
            st.execute(ddl);
        }
    }
}
