package io.skippr.sinks.s3;

import java.io.IOException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Turns SDK failures into messages in the user's terms: what was being done, where, and what to
 * check (the missing permission, the bucket, the keys). Never quotes credentials: the SDK's
 * messages carry none, and ours name only the bucket, key and endpoint.
 */
final class S3Errors {
    private S3Errors() {}

    /**
     * @param action what failed, such as "uploading s3://bucket/key"
     * @param permission the IAM action it needs, such as "s3:PutObject"
     * @param bucket the bucket it touched
     * @param endpoint the endpoint URL, or null for AWS
     */
    static IOException failure(
            String action, String permission, String bucket, String endpoint, SdkException e) {
        String where = endpoint == null ? "" : " at " + endpoint;
        if (e instanceof S3Exception s3) {
            String code = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
            String hint =
                    switch (code == null ? "" : code) {
                        case "NoSuchBucket" -> "bucket '" + bucket + "' does not exist" + where;
                        case "InvalidAccessKeyId" -> "the AWS access key id is not known" + where;
                        case "SignatureDoesNotMatch" ->
                                "the AWS secret access key does not match the access key id";
                        case "AccessDenied", "AllAccessDisabled" ->
                                "access denied: the credentials need "
                                        + permission
                                        + " on bucket '"
                                        + bucket
                                        + "'";
                        default ->
                                s3.statusCode() == 403
                                        ? "access denied (HTTP 403): the credentials need "
                                                + permission
                                                + " on bucket '"
                                                + bucket
                                                + "'"
                                        : "S3 answered HTTP "
                                                + s3.statusCode()
                                                + (code == null ? "" : " " + code);
                    };
            return new IOException(action + " failed: " + hint + " (" + s3.getMessage() + ")", e);
        }
        if (e instanceof SdkClientException) {
            return new IOException(
                    action
                            + " failed: S3"
                            + (endpoint == null ? "" : " at " + endpoint)
                            + " could not be reached or no credentials were found: "
                            + e.getMessage(),
                    e);
        }
        return new IOException(action + " failed: " + e.getMessage(), e);
    }

    static boolean isStatus(SdkException e, int status) {
        return e instanceof S3Exception s3 && s3.statusCode() == status;
    }

    static boolean isCode(SdkException e, String code) {
        return e instanceof S3Exception s3
                && s3.awsErrorDetails() != null
                && code.equals(s3.awsErrorDetails().errorCode());
    }
}
