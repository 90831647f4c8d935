-- asymmetric_faces: a face named in otherFaceIds that its set holds (the
-- first record of the set with that uuid) names the card back.
SELECT 'asymmetric_faces' AS code, i.set_code, i.kind, i.position, i.field,
       CAST(i.item AS BIGINT) AS item, i.value
FROM reference_items AS i
JOIN (
  SELECT set_code, kind, position, uuid, ROW_NUMBER() OVER (
    PARTITION BY set_code, uuid ORDER BY ordinal, position) AS nth
  FROM reference_records
  WHERE uuid IS NOT NULL
) AS face ON face.set_code = i.set_code AND face.uuid = i.value AND face.nth = 1
WHERE i.field = 'otherFaceIds'
  AND (i.uuid IS NULL OR NOT EXISTS (
    SELECT 1 FROM reference_items AS back
    WHERE back.set_code = face.set_code AND back.kind = face.kind
      AND back.position = face.position AND back.field = 'otherFaceIds'
      AND back.value = i.uuid))
