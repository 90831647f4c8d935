-- dangling_reference, of what only a whole catalog settles: run it over
-- an export of a whole catalog (a catalog, or a map of codes to sets),
-- where what is not held is missing rather than elsewhere. The printings
-- a card was rebalanced from or into, the cards named by name, a set's
-- parent and token set, and a token's set code when its set names no
-- token set.
SELECT 'dangling_reference' AS code, i.set_code, i.kind, i.position, i.field,
       CAST(i.item AS BIGINT) AS item, i.value
FROM reference_items AS i
WHERE i.field IN ('originalPrintings', 'rebalancedPrintings')
  AND NOT EXISTS (SELECT 1 FROM reference_records AS r WHERE r.uuid = i.value)
UNION ALL
SELECT 'dangling_reference', i.set_code, i.kind, i.position, i.field,
       CAST(i.item AS BIGINT), i.value
FROM reference_items AS i
WHERE i.field IN ('reverseRelated', 'relatedCards.reverseRelated', 'relatedCards.spellbook')
  AND NOT EXISTS (SELECT 1 FROM reference_records AS r
                  WHERE r.kind <> 'sealed' AND (r.name = i.value OR r.face_name = i.value))
UNION ALL
SELECT 'dangling_reference', s.code, 'set', CAST(NULL AS BIGINT), 'parentCode',
       CAST(NULL AS BIGINT), s.parent_code
FROM sets AS s
WHERE s.parent_code IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM sets AS p WHERE p.code = s.parent_code)
UNION ALL
SELECT 'dangling_reference', s.code, 'set', CAST(NULL AS BIGINT), 'tokenSetcode',
       CAST(NULL AS BIGINT), s.token_setcode
FROM sets AS s
WHERE s.token_setcode IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM sets AS p WHERE p.code = s.token_setcode)
UNION ALL
SELECT 'dangling_reference', r.set_code, r.kind, r.position, 'setCode',
       CAST(NULL AS BIGINT), r.record_set_code
FROM reference_records AS r
JOIN sets AS s ON s.code = r.set_code
WHERE r.kind = 'token' AND s.token_setcode IS NULL
  AND r.record_set_code <> s.code
  AND NOT EXISTS (SELECT 1 FROM sets AS p WHERE p.code = r.record_set_code)
