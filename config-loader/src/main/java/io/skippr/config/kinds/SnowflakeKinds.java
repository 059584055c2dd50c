package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** Snowflake. */
public final class SnowflakeKinds implements KindProvider {
    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSink("Snowflake", "Snowflake", Guarantee.EXACTLY_ONCE)
                        .description("Loads tables into Snowflake through an internal stage")
                        .fields(
                                Field.string("account", "Account identifier (orgname-account)")
                                        .required(),
                                Field.string("user", "User to log in as").required(),
                                Field.string("password", "Password of the user").secret(),
                                Field.path(
                                        "private_key_file",
                                        "Private key file for key-pair authentication"),
                                Field.string("private_key_passphrase", "Passphrase of the key")
                                        .secret(),
                                Field.string("database", "Database to load into").required(),
                                Field.string("schema", "Schema the tables are created in")
                                        .defaultsTo("PUBLIC"),
                                Field.string("warehouse", "Virtual warehouse that runs loads")
                                        .required(),
                                Field.string("role", "Role to use (default: the user's)"),
                                Field.string(
                                                "stage",
                                                "Named internal stage in the schema that Skippr PUTs"
                                                        + " Parquet files to (created if absent)")
                                        .defaultsTo("_skippr_stage"),
                                Field.string(
                                        "endpoint",
                                        "URL of the account when it is not"
                                                + " https://<account>.snowflakecomputing.com"
                                                + " (private link, tests)"))
                        .build());
    }
}
