package io.skippr.sinks.duckdb;

import java.sql.Connection;
import java.sql.DriverManager;

/** Run as its own process: opens a DuckDB file for writing and keeps it until killed. */
public final class HoldDuckDb {
    private HoldDuckDb() {}

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + args[0])) {
            c.createStatement().execute("SELECT 1");
            System.out.println("holding");
            System.out.flush();
            Thread.sleep(600_000);
        }
    }
}
