-- duplicate_id: a uuid is one record's. Every record after the first
-- (in its set's order) given the same uuid. Within a set only: an export
-- keeps one set's rows of a uuid (and one set of a code), the later one,
-- and says so, so the duplicates across sets and of set codes are the
-- export's report, not these rows'.
SELECT 'duplicate_id' AS code, set_code, kind, position, 'uuid' AS field,
       CAST(NULL AS BIGINT) AS item, uuid AS value
FROM (
  SELECT r.*, ROW_NUMBER() OVER (
    PARTITION BY set_code, uuid ORDER BY ordinal, position) AS nth
  FROM reference_records AS r
  WHERE uuid IS NOT NULL
) AS given
WHERE nth > 1
