-- dangling_reference, of what a set settles: an otherFaceIds or
-- variations id that no record holds.
SELECT 'dangling_reference' AS code, i.set_code, i.kind, i.position, i.field,
       CAST(i.item AS BIGINT) AS item, i.value
FROM reference_items AS i
WHERE i.field IN ('otherFaceIds', 'variations')
  AND NOT EXISTS (SELECT 1 FROM reference_records AS r WHERE r.uuid = i.value)
