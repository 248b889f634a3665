-- The recipes of docs/comb.md, exactly as the docs quote them: validating
-- client-generated ids at creation, idempotent creation with client-generated entity ids, and
-- creation idempotency with client command ids kept in creation_identifiers. The outputs are
-- verdicts and counts, so the real clock is used, as in production.

-- Recipe 1 and 2: the client makes the entity id (a COMB), the server validates it once, at
-- creation, and a retried create with the same id changes nothing.
CREATE TABLE orders (
  id uuid PRIMARY KEY,
  customer text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE FUNCTION orders_check_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A retry of a create that already happened is not a new id: let ON CONFLICT answer it, even
  -- when it comes after the tolerance.
  IF EXISTS (SELECT FROM orders WHERE id = NEW.id) THEN
    RETURN NEW;
  END IF;
  NEW.id := idgen.comb_check(NEW.id, tolerance => '5 minutes');
  RETURN NEW;
END $$;
CREATE TRIGGER orders_check_id BEFORE INSERT ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_check_id();

-- The create command: returns the id and whether this call created it.
CREATE FUNCTION create_order(order_id uuid, customer text)
RETURNS TABLE (id uuid, created boolean) LANGUAGE sql AS $$
  WITH inserted AS (
    INSERT INTO orders (id, customer) VALUES (order_id, customer)
    ON CONFLICT (id) DO NOTHING
    RETURNING orders.id)
  SELECT id, true FROM inserted
  UNION ALL
  SELECT o.id, false FROM orders o
  WHERE o.id = order_id AND NOT EXISTS (SELECT FROM inserted)
$$;

-- The client's id (a COMB made now, as a client library would), sent twice: one row.
SELECT idgen.comb() AS client_id \gset
SELECT created FROM create_order(:'client_id', 'ada');
SELECT created FROM create_order(:'client_id', 'ada');   -- the retry
SELECT count(*) FROM orders;
-- A time-based v1 id, or a COMB from an hour ago, is refused at creation (22023). (Terse errors:
-- the details name prefixes of the current time.)
\set VERBOSITY terse
SELECT created FROM create_order('0b5d2c7e-6c5f-11ee-9d1c-2f7a3c9e8b10', 'bob');
SELECT created FROM create_order(idgen.comb_at(now() - interval '1 hour'), 'bob');
\set VERBOSITY default

-- Recipe 3: the server makes the entity id; the client sends a time-based command id (UUIDv7),
-- remembered with the entity it created. A retry finds it and gets the same entity back.
CREATE TABLE creation_identifiers (
  command_id uuid PRIMARY KEY,       -- the client's UUIDv7: recent ids, so the index stays hot
  entity_id uuid NOT NULL,
  command text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE FUNCTION create_order_once(command_id uuid, customer text) RETURNS uuid
LANGUAGE plpgsql AS $$
DECLARE
  new_id uuid;
BEGIN
  IF idgen.uuid_version(command_id) IS DISTINCT FROM 7 THEN
    RAISE EXCEPTION 'command ids must be UUIDv7' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- A concurrent request with the same command id waits here for the first to commit, then
  -- finds its row.
  INSERT INTO creation_identifiers AS c (command_id, entity_id, command)
  VALUES (create_order_once.command_id, idgen.comb(), 'create_order')
  ON CONFLICT ON CONSTRAINT creation_identifiers_pkey DO NOTHING
  RETURNING c.entity_id INTO new_id;
  IF new_id IS NULL THEN
    SELECT c.entity_id INTO new_id FROM creation_identifiers c
    WHERE c.command_id = create_order_once.command_id;
    RETURN new_id;                   -- a retry: the entity exists already
  END IF;
  INSERT INTO orders (id, customer) VALUES (new_id, customer);
  RETURN new_id;
END $$;

SELECT idgen.uuidv7() AS command_id \gset
SELECT create_order_once(:'command_id', 'carol') AS first_call \gset
SELECT create_order_once(:'command_id', 'carol') = :'first_call' AS retry_returns_the_same_entity;
SELECT count(*) AS carol_orders FROM orders WHERE customer = 'carol';
SELECT create_order_once(gen_random_uuid(), 'dave');   -- not a UUIDv7 (22023)
-- The remembered command ids only need to outlive the retries: trim them.
DELETE FROM creation_identifiers WHERE created_at < now() - interval '1 day';

DROP TABLE orders, creation_identifiers;
DROP FUNCTION orders_check_id(), create_order(uuid, text), create_order_once(uuid, text);
