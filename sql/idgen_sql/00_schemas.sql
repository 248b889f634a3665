-- idgen_sql, the SQL edition of idgen: the same keys in SQL and PL/pgSQL only, for servers that
-- cannot load idgen's library. Everything users call lives in schema idgen, with idgen's names,
-- arguments, defaults, results, volatility, strictness and parallel labels; their helpers live in
-- idgen_lib; state that only the owner may see or change (sequences, the node number, the
-- public-id key, the group registry) lives in idgen_internal, which no other role may use: a role
-- that could name a table there could queue a lock (CREATE RULE, COMMENT) that idgen would wait
-- behind.
--
-- This folder is the one source: make writes the extension's script, the plain script and the
-- pg_tle installer from its files in name order (the Makefile says how). Conventions:
-- * Every name outside the function's own arguments is schema-qualified (idgen., idgen_lib.,
--   idgen_internal., pg_catalog.): the scripts run under a pinned search_path, but SQL-standard
--   bodies (RETURN ..., BEGIN ATOMIC) are resolved when the function is created, and PL/pgSQL
--   ones pin theirs.
-- * Prefer LANGUAGE sql functions with SQL-standard bodies (PostgreSQL inlines them) and
--   set-based expressions to PL/pgSQL loops.
-- * Errors carry the SQLSTATE and message of idgen's C functions.

-- idgen_lib holds the helpers of idgen's functions: every role may use it, since PL/pgSQL looks
-- names up as its caller when it runs (SQL-standard bodies are bound when they are created). They
-- compute from their arguments only, but for the ledger lock's gate (idgen_lib.ledger_lock), which
-- checks the caller's own rights before it calls into idgen_internal. It holds no table or
-- sequence, so a role that can name its objects can queue no lock that idgen waits for (its
-- composite types are never locked).
CREATE SCHEMA idgen_lib;
COMMENT ON SCHEMA idgen_lib IS
  'Helpers of idgen_sql''s functions (computed from their arguments only); no tables';
GRANT USAGE ON SCHEMA idgen_lib TO PUBLIC;

CREATE SCHEMA idgen_internal;
COMMENT ON SCHEMA idgen_internal IS
  'State of idgen_sql that only its owner may read or change: sequences, the node number, the public-id key';
REVOKE ALL ON SCHEMA idgen_internal FROM PUBLIC;

-- Settings that decide ids or guard secrets (the node number, the public-id key) are rows of
-- tables in idgen_internal that the role who installed idgen_sql may change and nobody else may
-- read; the functions that use them read them as their owner (SECURITY DEFINER, search_path
-- pinned). @extowner@ is that role: CREATE EXTENSION puts in the name of the role that ran it,
-- and make puts CURRENT_USER into the plain script. Application roles get EXECUTE on the
-- functions, never the tables: a custom setting that any role may SET in its session could not
-- keep a node number or a key to its owner.
GRANT USAGE ON SCHEMA idgen_internal TO @extowner@;

-- Every role may call idgen's functions, as with the C edition.
GRANT USAGE ON SCHEMA idgen TO PUBLIC;
