package io.skippr.core.postgres;

import io.skippr.core.errors.PermanentFailure;
import java.sql.SQLException;
import java.util.Set;

/** Which PostgreSQL errors a restart cannot cure, by SQLSTATE. */
public final class PgErrors {
    /**
     * invalid authorization (28000, 28P01), insufficient privilege (42501), no such database
     * (3D000), schema (3F000), table (42P01) or column (42703).
     */
    static final Set<String> PERMANENT =
            Set.of("28000", "28P01", "42501", "3D000", "3F000", "42P01", "42703");

    private PgErrors() {}

    public static boolean permanent(SQLException e) {
        return PERMANENT.contains(String.valueOf(e.getSQLState()));
    }

    /** {@code e} as the cause of the exception that explains it, marked if it is permanent. */
    public static Throwable cause(SQLException e) {
        return PermanentFailure.mark(e, permanent(e));
    }
}
