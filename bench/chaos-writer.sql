-- The source of bench/chaos: a table a writer keeps inserting into and updating, with a cursor
-- column the database sets as each statement runs. The writer is one session whose
-- transactions commit one after another, so cursor values grow in commit order: the polling
-- source reads `after < updated_at <= upper` and would miss a row that a slower concurrent
-- transaction committed later with a smaller cursor (docs/connectors/postgres.md).
SET client_min_messages = warning;
DROP SCHEMA IF EXISTS chaos_src CASCADE;
CREATE SCHEMA chaos_src;

CREATE TABLE chaos_src.items (
  id bigint PRIMARY KEY,
  payload text,
  amount numeric(12, 2),
  version int NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- Every version of every row, as the writer wrote it: an append destination may hold only these,
-- each at most once (a version overwritten before a poll read it is never read).
CREATE TABLE chaos_src.history (
  id bigint NOT NULL,
  version int NOT NULL,
  payload text,
  amount numeric(12, 2),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (id, version)
);
CREATE FUNCTION chaos_src.remember() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO chaos_src.history VALUES (NEW.id, NEW.version, NEW.payload, NEW.amount, NEW.updated_at);
  RETURN NEW;
END $$;
CREATE TRIGGER remember AFTER INSERT OR UPDATE ON chaos_src.items
  FOR EACH ROW EXECUTE FUNCTION chaos_src.remember();

-- One row: the writer's stop flag and what it did.
CREATE TABLE chaos_src.writer (
  stop boolean NOT NULL,
  iterations bigint NOT NULL,
  inserted bigint NOT NULL,
  updated bigint NOT NULL
);
INSERT INTO chaos_src.writer VALUES (false, 0, 0, 0);

INSERT INTO chaos_src.items (id, payload, amount, version)
SELECT g, md5(g::text), (g % 100000) / 100.0, 1
FROM generate_series(1, :initial_rows) g;

-- Each iteration, one transaction: `inserts` new rows and `updates` updates of random existing
-- rows (a new payload, sometimes NULL, a new amount, version + 1, a new updated_at); then a pause.
-- Runs until writer.stop is set or after max_iterations. With with_note, new and updated rows
-- also get a `note` (the column the savepoint upgrade adds).
CREATE PROCEDURE chaos_src.write(
    seed float8, inserts int, updates int, pause float8, max_iterations bigint,
    with_note boolean)
LANGUAGE plpgsql AS $$
DECLARE
  hi bigint;
  changed bigint;
  done bigint := 0;
BEGIN
  PERFORM setseed(seed);
  LOOP
    EXIT WHEN done >= max_iterations OR (SELECT stop FROM chaos_src.writer);
    SELECT max(id) INTO hi FROM chaos_src.items;
    IF with_note THEN
      EXECUTE 'INSERT INTO chaos_src.items (id, payload, amount, version, note)
        SELECT $1 + g, md5(random()::text), round((random() * 10000)::numeric, 2), 1,
          ''added '' || ($1 + g)
        FROM generate_series(1, $2) g' USING hi, inserts;
      EXECUTE 'UPDATE chaos_src.items SET version = version + 1,
          payload = CASE WHEN random() < 0.05 THEN NULL ELSE md5(random()::text) END,
          amount = round((random() * 10000)::numeric, 2), updated_at = clock_timestamp(),
          note = ''v'' || (version + 1)
        WHERE id IN (SELECT 1 + floor(random() * $1)::bigint FROM generate_series(1, $2))'
        USING hi, updates;
    ELSE
      INSERT INTO chaos_src.items (id, payload, amount, version)
      SELECT hi + g, md5(random()::text), round((random() * 10000)::numeric, 2), 1
      FROM generate_series(1, inserts) g;
      UPDATE chaos_src.items SET version = version + 1,
          payload = CASE WHEN random() < 0.05 THEN NULL ELSE md5(random()::text) END,
          amount = round((random() * 10000)::numeric, 2), updated_at = clock_timestamp()
        WHERE id IN (SELECT 1 + floor(random() * hi)::bigint FROM generate_series(1, updates));
    END IF;
    GET DIAGNOSTICS changed = ROW_COUNT;
    UPDATE chaos_src.writer SET iterations = iterations + 1, inserted = inserted + inserts,
      updated = updated + changed;
    COMMIT;
    done := done + 1;
    PERFORM pg_sleep(pause);
  END LOOP;
END $$;
