package io.skippr.sinks.staged;

import io.skippr.sinks.s3.S3Connection;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** A stage in an S3 bucket (or an S3-compatible store), with the AWS SDK's credential chain. */
public final class S3Stage implements Stage {
    private static final long serialVersionUID = 1L;

    private final S3Connection connection;
    private final String bucket;

    public S3Stage(S3Connection connection, String bucket) {
        this.connection = connection;
        this.bucket = bucket;
    }

    @Override
    public void put(String key, Path file, Map<String, String> metadata) throws IOException {
        try (S3Client s3 = connection.open()) {
            s3.putObject(b -> b.bucket(bucket).key(key).metadata(metadata), file);
        } catch (SdkException e) {
            throw failure("uploading", key, e);
        }
    }

    @Override
    public void put(String key, byte[] bytes, Map<String, String> metadata) throws IOException {
        try (S3Client s3 = connection.open()) {
            s3.putObject(
                    b -> b.bucket(bucket).key(key).metadata(metadata),
                    RequestBody.fromBytes(bytes));
        } catch (SdkException e) {
            throw failure("uploading", key, e);
        }
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        try (S3Client s3 = connection.open()) {
            List<String> keys = new ArrayList<>();
            s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix))
                    .contents()
                    .forEach(o -> keys.add(o.key()));
            keys.sort(null);
            return keys;
        } catch (SdkException e) {
            throw failure("listing", prefix, e);
        }
    }

    @Override
    public Map<String, String> metadata(String key) throws IOException {
        try (S3Client s3 = connection.open()) {
            return s3.headObject(b -> b.bucket(bucket).key(key)).metadata();
        } catch (NoSuchKeyException e) {
            return null;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return null;
            }
            throw failure("reading", key, e);
        } catch (SdkException e) {
            throw failure("reading", key, e);
        }
    }

    @Override
    public void delete(List<String> keys) throws IOException {
        try (S3Client s3 = connection.open()) {
            for (int from = 0; from < keys.size(); from += 1000) {
                List<ObjectIdentifier> ids = new ArrayList<>();
                for (String key : keys.subList(from, Math.min(keys.size(), from + 1000))) {
                    ids.add(ObjectIdentifier.builder().key(key).build());
                }
                s3.deleteObjects(
                        b -> b.bucket(bucket).delete(Delete.builder().objects(ids).build()));
            }
        } catch (SdkException e) {
            throw failure("deleting", keys.isEmpty() ? "" : keys.get(0), e);
        }
    }

    @Override
    public String url(String key) {
        return "s3://" + bucket + "/" + key;
    }

    private IOException failure(String doing, String key, SdkException e) {
        return new IOException(
                doing + " " + url(key) + " failed: " + e.getMessage() + " (" + connection + ")", e);
    }

    @Override
    public String toString() {
        return "S3Stage{bucket=" + bucket + ", " + connection + "}";
    }
}
