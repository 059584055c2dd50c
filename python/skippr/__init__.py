"""Skippr from Python: edit skippr.yml and run pipelines.

    from skippr import Config, DataSinkPostgres, EnvRef, Pipeline

    cfg = Config.load("skippr.yml")
    warehouse = cfg.data_sink("warehouse", DataSinkPostgres(host="db", user="loader",
                              password=EnvRef("WAREHOUSE_PASSWORD"), database="analytics"))
    cfg.pipeline("orders", Pipeline(data_source=cfg.get_data_source("app_db"), data_sink=warehouse))
    cfg.save()

The package needs the ``skipprd`` command (on the PATH, or named by $SKIPPR_SKIPPRD): edits are
applied and checked by its config loader, and pipelines run in it.
"""

from ._config import Config, ConfiguredPipeline, EntryRef, Pipeline
from ._connector import Connector, EnvRef
from ._deadletters import Deadletters
from ._session import Session
from .connectors import *  # noqa: F401,F403
from .connectors import __all__ as _connectors
from .errors import ConfigError, SkipprdNotFound, SkipprError, SyncError

__all__ = [
    "Config",
    "ConfiguredPipeline",
    "Connector",
    "Deadletters",
    "EntryRef",
    "EnvRef",
    "Pipeline",
    "Session",
    "ConfigError",
    "SkipprError",
    "SkipprdNotFound",
    "SyncError",
] + list(_connectors)
