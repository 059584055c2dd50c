from skippr import Config, DataSinkPostgres, EnvRef, Pipeline

cfg = Config.load("skippr.yml")
warehouse = cfg.data_sink(
    "warehouse",
    DataSinkPostgres(
        host="warehouse.internal",
        user="skippr_loader",
        password=EnvRef("WAREHOUSE_PASSWORD"),
        database="analytics",
        schema="raw",
    ),
)
app_db = cfg.get_data_source("app_db")
cfg.pipeline("orders", Pipeline(data_source=app_db, data_sink=warehouse))
cfg.save()
