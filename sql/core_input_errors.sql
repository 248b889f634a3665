-- PostgreSQL 16 lets callers test input without an error (pg_input_is_valid, pg_input_error_info;
-- COPY ... ON_ERROR from 17 builds on it). idgen's types report malformed text that way: the same
-- message and detail as the error, and no error.
SELECT t AS input, type, pg_input_is_valid(t, type) AS valid, e.message, e.detail, e.sql_error_code
FROM (VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'idgen.ulid'),
             ('01ARZ3NDEKTSV4RRFFQ69G5FAI', 'idgen.ulid'),
             ('81ARZ3NDEKTSV4RRFFQ69G5FAV', 'idgen.ulid'),
             ('01ARZ3', 'idgen.ulid'),
             ('user_01h455vb4pex5vsknk084sn02q', 'idgen.typeid'),
             ('User_01h455vb4pex5vsknk084sn02q', 'idgen.typeid'),
             ('user_01h455vb4pex5vsknk084sn02', 'idgen.typeid'),
             ('00060a24181e4001a1af30c612def140', 'idgen.event_id'),
             ('00060a24181e4001a1af30c612def14g', 'idgen.event_id')) v(t, type),
     LATERAL pg_input_error_info(t, type) e;
-- A domain over the type checks its constraint the same way.
CREATE DOMAIN pg_temp.user_id AS idgen.typeid CHECK (idgen.typeid_prefix(VALUE) = 'user');
SELECT pg_input_is_valid('user_01h455vb4pex5vsknk084sn02q', 'pg_temp.user_id') AS user_ok,
       pg_input_is_valid('order_01h455vb4pex5vsknk084sn02q', 'pg_temp.user_id') AS order_ok;
