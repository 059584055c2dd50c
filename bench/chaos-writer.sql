-- The source of bench/chaos: a table a writer keeps inserting into and updating, with a cursor
-- column the database sets as each statement runs, and a second table (cdc_items, read through
-- change data capture) it also deletes from, in the same transactions. The writer is one session whose
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

-- The change data capture pipeline's table: the same columns, its own rows; deleted from too.
CREATE TABLE chaos_src.cdc_items (LIKE chaos_src.items INCLUDING ALL);

-- One row: the writer's stop flag and what it did (cdc_* of cdc_items).
CREATE TABLE chaos_src.writer (
  stop boolean NOT NULL,
  iterations bigint NOT NULL,
  inserted bigint NOT NULL,
  updated bigint NOT NULL,
  cdc_inserted bigint NOT NULL DEFAULT 0,
  cdc_updated bigint NOT NULL DEFAULT 0,
  cdc_deleted bigint NOT NULL DEFAULT 0,
  cdc_top bigint NOT NULL  -- cdc_items' highest key ever (max(id) falls when it is deleted)
);
INSERT INTO chaos_src.writer (stop, iterations, inserted, updated, cdc_top)
VALUES (false, 0, 0, 0, :initial_rows);

INSERT INTO chaos_src.items (id, payload, amount, version)
SELECT g, md5(g::text), (g % 100000) / 100.0, 1
FROM generate_series(1, :initial_rows) g;
INSERT INTO chaos_src.cdc_items SELECT * FROM chaos_src.items;

-- Each iteration, one transaction: `inserts` new rows and `updates` updates of random existing
-- rows (a new payload, sometimes NULL, a new amount, version + 1, a new updated_at); then a pause.
-- In the same transaction the same on cdc_items, and deletes of `updates` / 5 random keys of it
-- (a key deleted is never inserted again: new keys are above its highest key ever).
-- Runs until writer.stop is set or after max_iterations. With with_note, new and updated rows
-- also get a `note` (the column the savepoint upgrade adds to both tables).
CREATE PROCEDURE chaos_src.write(
    seed float8, inserts int, updates int, pause float8, max_iterations bigint,
    with_note boolean)
LANGUAGE plpgsql AS $$
DECLARE
  hi bigint;
  changed bigint;
  cdc_hi bigint;
  cdc_changed bigint;
  cdc_gone bigint;
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
    SELECT cdc_top INTO cdc_hi FROM chaos_src.writer;
    EXECUTE format('INSERT INTO chaos_src.cdc_items (id, payload, amount, version%s)
        SELECT $1 + g, md5(random()::text), round((random() * 10000)::numeric, 2), 1%s
        FROM generate_series(1, $2) g',
        CASE WHEN with_note THEN ', note' ELSE '' END,
        CASE WHEN with_note THEN ', ''added '' || ($1 + g)' ELSE '' END)
      USING cdc_hi, inserts;
    EXECUTE format('UPDATE chaos_src.cdc_items SET version = version + 1,
          payload = CASE WHEN random() < 0.05 THEN NULL ELSE md5(random()::text) END,
          amount = round((random() * 10000)::numeric, 2), updated_at = clock_timestamp()%s
        WHERE id IN (SELECT 1 + floor(random() * $1)::bigint FROM generate_series(1, $2))',
        CASE WHEN with_note THEN ', note = ''v'' || (version + 1)' ELSE '' END)
      USING cdc_hi + inserts, updates;
    GET DIAGNOSTICS cdc_changed = ROW_COUNT;
    DELETE FROM chaos_src.cdc_items WHERE id IN (
      SELECT 1 + floor(random() * (cdc_hi + inserts))::bigint FROM generate_series(1, updates / 5));
    GET DIAGNOSTICS cdc_gone = ROW_COUNT;
    UPDATE chaos_src.writer SET iterations = iterations + 1, inserted = inserted + inserts,
      updated = updated + changed, cdc_inserted = cdc_inserted + inserts,
      cdc_updated = cdc_updated + cdc_changed, cdc_deleted = cdc_deleted + cdc_gone,
      cdc_top = cdc_top + inserts;
    COMMIT;
    done := done + 1;
    PERFORM pg_sleep(pause);
  END LOOP;
END $$;
