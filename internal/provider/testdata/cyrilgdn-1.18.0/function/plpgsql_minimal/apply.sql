\connect postgres
CREATE FUNCTION "fx_noop" () RETURNS void
AS $$
BEGIN
  PERFORM 1;
END;
$$ LANGUAGE plpgsql;
