-- idgen_sql installed by a database's owner who is not a superuser (the extension is trusted, so
-- CREATE EXTENSION runs its script as the bootstrap superuser, who then owns its objects): that
-- owner registers groups, grants registration to an application role, forgets a registration,
-- and the event trigger exists and clears a dropped table's target. (idgen itself is not trusted:
-- a superuser installs it and owns everything.)
\set VERBOSITY terse
SELECT current_database() AS regress_db, current_user AS regress_user \gset
CREATE ROLE regress_group_dbo LOGIN;
CREATE ROLE regress_group_application LOGIN;
CREATE DATABASE regress_group_owned OWNER regress_group_dbo;
\c regress_group_owned regress_group_dbo
SELECT rolsuper AS installer_is_superuser FROM pg_roles WHERE rolname = current_user;
CREATE EXTENSION idgen_sql CASCADE;
SELECT evtname, evtenabled FROM pg_event_trigger ORDER BY evtname;
CREATE TABLE orders (id uuid PRIMARY KEY);
SELECT idgen.register_group('order', 10, 'orders') AS registered_by_owner;
GRANT EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) TO regress_group_application;
GRANT CREATE ON SCHEMA public TO regress_group_application;
\c regress_group_owned regress_group_application
CREATE TABLE invoices (id uuid PRIMARY KEY DEFAULT idgen.group_uuid('invoice', 1));
SELECT idgen.register_group('invoice', 11, 'invoices') AS registered_by_application;
INSERT INTO invoices DEFAULT VALUES;
SELECT idgen.group_name(id), idgen.group_target(id) FROM invoices;
DROP TABLE invoices;
\c regress_group_owned regress_group_dbo
SELECT name, group_id, target FROM idgen.groups ORDER BY group_id;
DELETE FROM idgen.groups WHERE name = 'invoice';
DROP TABLE orders;
SELECT name, group_id, target FROM idgen.groups ORDER BY group_id;
\c :regress_db :regress_user
DROP DATABASE regress_group_owned;
DROP ROLE regress_group_application;
DROP ROLE regress_group_dbo;
