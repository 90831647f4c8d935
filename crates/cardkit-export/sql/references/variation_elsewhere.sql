-- variation_elsewhere: a variations id that its set does not hold names
-- a record of another set.
SELECT 'variation_elsewhere' AS code, i.set_code, i.kind, i.position, i.field,
       CAST(i.item AS BIGINT) AS item, i.value
FROM reference_items AS i
WHERE i.field = 'variations'
  AND NOT EXISTS (SELECT 1 FROM reference_records AS r
                  WHERE r.set_code = i.set_code AND r.uuid = i.value)
  AND EXISTS (SELECT 1 FROM reference_records AS r WHERE r.uuid = i.value)
