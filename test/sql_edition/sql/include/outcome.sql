-- pg_temp.outcome(query): what a query returns (its one value as text, or NULL), or the SQLSTATE,
-- message and detail of the error it raises; included by the scripts that compare refusals.
CREATE FUNCTION pg_temp.outcome(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  state text; message text; detail text; result text;
BEGIN
  EXECUTE query INTO result;
  RETURN coalesce(result, 'NULL');
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
  RETURN state || ': ' || message || coalesce(' / ' || nullif(detail, ''), '');
END
$$;
