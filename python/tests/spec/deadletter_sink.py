from skippr import Config, DataSinkS3, Pipeline

cfg = Config.load("skippr.yml")
rejects = cfg.deadletter_sink(
    "rejects",
    DataSinkS3(s3_bucket="acme-lake", s3_prefix="deadletters/orders"),
)
cfg.pipeline(
    "orders",
    Pipeline(
        data_source=cfg.get_data_source("app_db"),
        data_sink=cfg.get_data_sink("warehouse"),
        deadletter_sink=rejects,
    ),
)
cfg.save()
