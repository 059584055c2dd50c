package io.skippr.sinks.glue;

import java.io.IOException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Turns Glue SDK failures into messages in the user's terms: what was being done, in which
 * database, and what to check (the missing IAM action, the endpoint). Never quotes credentials.
 */
final class GlueErrors {
    private GlueErrors() {}

    /**
     * @param action what failed, such as "creating Glue table bronze.orders"
     * @param permission the IAM action it needs, such as "glue:CreateTable"
     * @param endpoint the endpoint URL, or null for AWS
     */
    static IOException failure(String action, String permission, String endpoint, SdkException e) {
        if (e instanceof AwsServiceException aws) {
            String code = aws.awsErrorDetails() == null ? null : aws.awsErrorDetails().errorCode();
            String hint =
                    "AccessDeniedException".equals(code) || aws.statusCode() == 403
                            ? "access denied: the credentials need " + permission
                            : "Glue answered HTTP "
                                    + aws.statusCode()
                                    + (code == null ? "" : " " + code);
            return new IOException(
                    action
                            + " failed: "
                            + hint
                            + " ("
                            + (aws.awsErrorDetails() == null
                                    ? aws.getMessage()
                                    : aws.awsErrorDetails().errorMessage())
                            + ")",
                    e);
        }
        if (e instanceof SdkClientException) {
            return new IOException(
                    action
                            + " failed: Glue"
                            + (endpoint == null ? "" : " at " + endpoint)
                            + " could not be reached or no credentials were found: "
                            + e.getMessage(),
                    e);
        }
        return new IOException(action + " failed: " + e.getMessage(), e);
    }
}
