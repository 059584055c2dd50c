from skippr import Config, DataSinkAthena, Pipeline, SchemaSinkGlue

cfg = Config.load("skippr.yml")
glue = cfg.schema_sink(
    "glue",
    SchemaSinkGlue(
        s3_bucket="acme-lake",
        s3_prefix="bronze/orders",
        athena_workgroup_name="primary",
        athena_results_s3_bucket="acme-athena-results",
        glue_database_name="bronze",
    ),
)
lake = cfg.data_sink(
    "lake",
    DataSinkAthena(
        s3_bucket="acme-lake",
        s3_prefix="bronze/orders",
        athena_workgroup_name="primary",
        athena_results_s3_bucket="acme-athena-results",
    ),
    schema_sink=glue,
)
cfg.pipeline("orders", Pipeline(data_source=cfg.get_data_source("app_db"), data_sink=lake))
cfg.save()
