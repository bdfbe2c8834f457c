\connect postgres
CREATE FUNCTION "public"."fx_stats" (
    INOUT label text,
    OUT total bigint,
    VARIADIC vals integer[]
) RETURNS record
AS $$
BEGIN
  label := upper(label);
  SELECT sum(v) INTO total FROM unnest(vals) AS v;
END;
$$ LANGUAGE plpgsql STABLE SECURITY DEFINER;
