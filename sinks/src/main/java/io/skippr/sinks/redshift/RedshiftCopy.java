package io.skippr.sinks.redshift;

import io.skippr.sinks.staged.StagedCsv;
import io.skippr.sinks.staged.StagedLoad;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/**
 * Redshift's {@code COPY … FROM 's3://…manifest' … MANIFEST FORMAT AS CSV GZIP}: loads exactly the
 * files a staged set's manifest lists. COPY reads S3 with the IAM role when one is configured, else
 * with the AWS credentials Skippr itself stages with (the SDK's default chain), passed in the
 * statement; the statement is never logged and no message repeats it.
 *
 * @param iamRole the role's ARN, or null
 * @param region the bucket's region when it is not the cluster's, or null
 */
record RedshiftCopy(String iamRole, String region) implements StagedLoad {
    private static final long serialVersionUID = 1L;
    private static final RedshiftDialect DIALECT = new RedshiftDialect();

    @Override
    public void load(Connection c, String qualifiedTable, String manifestUrl) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(statement(qualifiedTable, manifestUrl, authorization()));
        }
    }

    /** The COPY, with {@code authorization} ({@code IAM_ROLE '…'} or the keys). */
    static String statement(String qualifiedTable, String manifestUrl, String authorization) {
        return "COPY "
                + qualifiedTable
                + " FROM "
                + DIALECT.literal(manifestUrl)
                + " "
                + authorization
                + " MANIFEST FORMAT AS CSV GZIP NULL AS '\\\\N'"
                + " TIMEFORMAT 'auto' DATEFORMAT 'auto' COMPUPDATE OFF STATUPDATE OFF";
    }

    String authorization() {
        String auth;
        if (iamRole != null) {
            auth = "IAM_ROLE " + DIALECT.literal(iamRole);
        } else {
            AwsCredentials keys = DefaultCredentialsProvider.builder().build().resolveCredentials();
            auth =
                    "ACCESS_KEY_ID "
                            + DIALECT.literal(keys.accessKeyId())
                            + " SECRET_ACCESS_KEY "
                            + DIALECT.literal(keys.secretAccessKey())
                            + (keys instanceof AwsSessionCredentials session
                                    ? " SESSION_TOKEN " + DIALECT.literal(session.sessionToken())
                                    : "");
        }
        return region == null ? auth : auth + " REGION " + DIALECT.literal(region);
    }

    static {
        // the null marker the statement names must be the one the staged files hold
        if (!StagedCsv.NULL.equals("\\N")) {
            throw new IllegalStateException("COPY's NULL AS and StagedCsv.NULL differ");
        }
    }
}
