"""The skippr package against skipprd's config loader (SKIPPR_SKIPPRD names the launcher)."""

import os
import shutil
import tempfile
import unittest

import skippr
from skippr import (
    Config,
    ConfigError,
    DataSinkPostgres,
    DataSinkS3,
    DataSourcePostgres,
    EnvRef,
    Pipeline,
    SchemaSinkGlue,
)

HERE = os.path.dirname(os.path.abspath(__file__))


class ApiTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="skippr-py-")
        self.path = os.path.join(self.dir, "skippr.yml")
        shutil.copy(os.path.join(HERE, "spec", "skippr.yml"), self.path)
        self.before = self.text()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def text(self):
        with open(self.path, encoding="utf-8") as f:
            return f.read()

    def test_a_saved_edit_keeps_the_files_comments_and_key_order(self):
        cfg = Config.load(self.path)
        cfg.data_sink("lake", DataSinkS3(s3_bucket="acme-lake", s3_prefix="raw"))
        cfg.save()
        text = self.text()
        self.assertTrue(text.startswith(self.before.rstrip("\n")), text)
        self.assertIn("data_sinks:\n  lake:\n    S3:\n      s3_bucket: acme-lake\n", text)

    def test_a_value_of_the_wrong_type_is_refused_with_the_loaders_message_and_nothing_saved(self):
        cfg = Config.load(self.path)
        cfg.data_sink("warehouse", DataSinkPostgres(host="db", port="5432x", database="a"))
        with self.assertRaises(ConfigError) as raised:
            cfg.save()
        self.assertEqual(
            str(raised.exception), self.path + ": Postgres.port takes an integer, not 5432x"
        )
        self.assertEqual(self.text(), self.before)

    def test_a_reference_to_a_missing_entry_suggests_the_closest(self):
        cfg = Config.load(self.path)
        cfg.pipeline("orders", Pipeline(data_source=cfg.get_data_source("app_bd")))
        with self.assertRaises(ConfigError) as raised:
            cfg.save()
        self.assertEqual(
            str(raised.exception),
            self.path + ": data_sources.app_bd is not defined; did you mean 'app_db'?",
        )

    def test_an_unknown_field_is_a_type_error_at_once(self):
        with self.assertRaises(TypeError) as raised:
            DataSinkPostgres(hots="db")
        self.assertIn("hots", str(raised.exception))

    def test_a_connector_of_another_role_is_refused_at_once(self):
        cfg = Config.load(self.path)
        with self.assertRaises(TypeError) as raised:
            cfg.deadletter_sink("rejects", SchemaSinkGlue(s3_bucket="b"))
        self.assertEqual(
            str(raised.exception),
            "deadletter_sink takes a data sink connector (DataSink...), not"
            " SchemaSinkGlue(s3_bucket='b')",
        )

    def test_a_missing_file_is_a_config_error(self):
        missing = os.path.join(self.dir, "nope.yml")
        with self.assertRaises(ConfigError) as raised:
            Config.load(missing)
        self.assertEqual(str(raised.exception), missing + ": no such file")

    def test_discover_finds_the_file_in_a_parent_folder_or_the_one_skippr_config_names(self):
        nested = os.path.join(self.dir, "a", "b")
        os.makedirs(nested)
        cwd = os.getcwd()
        try:
            os.chdir(nested)
            self.assertEqual(Config.discover().path, os.path.realpath(self.path))
            other = os.path.join(self.dir, "other.yml")
            shutil.copy(self.path, other)
            os.environ["SKIPPR_CONFIG"] = other
            try:
                self.assertEqual(Config.discover().path, other)
            finally:
                del os.environ["SKIPPR_CONFIG"]
        finally:
            os.chdir(cwd)

    def test_env_refs_are_written_as_references(self):
        cfg = Config.load(self.path)
        cfg.data_sink(
            "warehouse",
            DataSinkPostgres(
                host=EnvRef("WH_HOST"), user="u", password=EnvRef("WH_PW"), database="a"
            ),
        )
        cfg.save()
        self.assertIn("host: ${WH_HOST}", self.text())
        self.assertIn("password: ${WH_PW}", self.text())
        with self.assertRaises(ValueError):
            EnvRef("1BAD")

    def test_soft_deletes_are_written_as_a_boolean_and_need_a_source_reading_changes(self):
        cfg = Config.load(self.path)
        cfg.pipeline(
            "mirror",
            Pipeline(
                data_source=cfg.get_data_source("app_db"),
                write_mode="merge",
                soft_deletes=True,
            ),
        )
        with self.assertRaises(ConfigError) as raised:
            cfg.save()
        self.assertEqual(
            str(raised.exception),
            self.path
            + ": pipelines.mirror.soft_deletes: soft_deletes marks the rows change data"
            " capture deletes, and"
            " data_sources.app_db does not read changes: set replication_method: cdc on it (a"
            " Postgres source), or remove soft_deletes",
        )
        self.assertEqual(self.text(), self.before)

        cfg = Config.load(self.path)
        cfg.data_source(
            "changes",
            DataSourcePostgres(
                host="app-db.internal",
                user="skippr_reader",
                password=EnvRef("APP_DB_PASSWORD"),
                database="app",
                replication_method="cdc",
            ),
        )
        cfg.pipeline(
            "mirror",
            Pipeline(data_source=cfg.get_data_source("changes"), soft_deletes=True),
        )
        cfg.save()
        self.assertIn(
            "  mirror:\n    data_source: data_sources.changes\n    soft_deletes: true\n",
            self.text(),
        )

    def test_every_catalog_kind_has_a_class(self):
        self.assertIn("DataSinkPostgres", skippr.__all__)
        self.assertEqual(DataSinkPostgres()._kind, "Postgres")
        self.assertEqual(DataSinkPostgres()._role, "data_sink")

    def test_deadletters_a_stdout_sink_cannot_give_back_are_refused_with_the_reason(self):
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(
                "pipelines:\n"
                "  orders: {data_source: data_sources.files, data_sink: data_sinks.out,"
                " deadletter_sink: deadletter_sinks.rejects}\n"
                "data_sources:\n"
                "  files:\n"
                "    LocalFile: {path: in/*.csv, format: csv, stream: orders}\n"
                "data_sinks:\n"
                "  out:\n"
                "    LocalFile: {path: out}\n"
                "deadletter_sinks:\n"
                "  rejects:\n"
                "    Stdout: {}\n"
            )
        session = skippr.Session(Config.load(self.path).get_pipeline("orders"))
        for call in (session.deadletters().list, session.deadletters().replay):
            with self.assertRaises(ConfigError) as raised:
                call()
            self.assertEqual(
                str(raised.exception),
                "deadletter_sinks.rejects (Stdout) prints each deadletter as a line and keeps"
                " nothing, so there is nothing to read back; to list and replay deadletters, use a"
                " table (Postgres, DuckDB, MotherDuck, ClickHouse, Redshift, Snowflake, Databricks,"
                " Synapse, BigQuery, SkipprLake, AthenaIceberg) or files (LocalFile, S3, GCS,"
                " AzureBlob, SFTP, Athena) as the deadletter sink",
            )


if __name__ == "__main__":
    unittest.main()
