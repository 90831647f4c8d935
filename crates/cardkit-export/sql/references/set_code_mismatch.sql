-- set_code_mismatch: a card's setCode is its set's code; a token's is its
-- set's code or the set's tokenSetcode (a token of a set that names no
-- token set is checked by dangling_reference_catalog.sql).
SELECT 'set_code_mismatch' AS code, r.set_code, r.kind, r.position, 'setCode' AS field,
       CAST(NULL AS BIGINT) AS item, r.record_set_code AS value
FROM reference_records AS r
JOIN sets AS s ON s.code = r.set_code
WHERE r.kind <> 'sealed'
  AND r.record_set_code <> s.code
  AND NOT (r.kind = 'token' AND s.token_setcode IS NULL)
  AND NOT (r.kind = 'token' AND r.record_set_code = s.token_setcode)
