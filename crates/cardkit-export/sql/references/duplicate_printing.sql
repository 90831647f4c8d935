-- duplicate_printing: number + side + language is one card's (or one
-- token's) in its set. Every record after the first of its printing.
SELECT 'duplicate_printing' AS code, set_code, kind, position, 'number' AS field,
       CAST(NULL AS BIGINT) AS item, number AS value
FROM (
  SELECT r.*, ROW_NUMBER() OVER (
    PARTITION BY set_code, kind, number, COALESCE(side, ''), COALESCE(language, '')
    ORDER BY position) AS nth
  FROM reference_records AS r
  WHERE kind <> 'sealed' AND number IS NOT NULL
) AS printed
WHERE nth > 1
