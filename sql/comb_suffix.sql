-- SQL Server suffix form: bytes 0..1 swapped with bytes 10..11, version and variant untouched.
SELECT idgen.comb_to_suffix('6dc0a8d2-22a7-4c53-a480-87ba5619e948') AS suffix_form,
       idgen.comb_from_suffix('87baa8d2-22a7-4c53-a480-6dc05619e948') AS prefix_form;

SELECT count(*) AS ids,
       count(*) FILTER (WHERE idgen.comb_from_suffix(idgen.comb_to_suffix(id)) = id) AS round_trips,
       count(*) FILTER (WHERE substr(idgen.comb_to_suffix(id)::text, 25, 4) = '6dc0') AS prefix_in_suffix,
       count(*) FILTER (WHERE substr(idgen.comb_to_suffix(id)::text, 15, 1) = '4'
                          AND substr(idgen.comb_to_suffix(id)::text, 20, 1) IN ('8', '9', 'a', 'b'))
         AS version_variant_kept
FROM (SELECT idgen.comb_at('2026-01-01 00:00:00+00') AS id FROM generate_series(1, 1000)) t;

SELECT idgen.comb_to_suffix(NULL) IS NULL AS to_null, idgen.comb_from_suffix(NULL) IS NULL AS from_null;
