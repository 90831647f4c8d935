-- Every item of a list that names records or cards, one row each, with
-- its place (`item` counts from 0). UNNEST ... WITH ORDINALITY is standard
-- SQL (DuckDB, PostgreSQL, Trino); Spark SQL has none, and runs
-- reference_items.spark.sql instead: the one query written twice.
SELECT c.parent_set_code AS set_code, 'card' AS kind, c.position, c.uuid,
       'otherFaceIds' AS field, t.item - 1 AS item, t.value
FROM cards AS c CROSS JOIN UNNEST(c.other_face_ids) WITH ORDINALITY AS t(value, item)
UNION ALL
SELECT c.parent_set_code, 'card', c.position, c.uuid, 'variations', t.item - 1, t.value
FROM cards AS c CROSS JOIN UNNEST(c.variations) WITH ORDINALITY AS t(value, item)
UNION ALL
SELECT c.parent_set_code, 'card', c.position, c.uuid, 'originalPrintings', t.item - 1, t.value
FROM cards AS c CROSS JOIN UNNEST(c.original_printings) WITH ORDINALITY AS t(value, item)
UNION ALL
SELECT c.parent_set_code, 'card', c.position, c.uuid, 'rebalancedPrintings', t.item - 1, t.value
FROM cards AS c CROSS JOIN UNNEST(c.rebalanced_printings) WITH ORDINALITY AS t(value, item)
UNION ALL
SELECT k.parent_set_code, 'token', k.position, k.uuid, 'otherFaceIds', t.item - 1, t.value
FROM tokens AS k CROSS JOIN UNNEST(k.other_face_ids) WITH ORDINALITY AS t(value, item)
UNION ALL
SELECT k.parent_set_code, 'token', k.position, k.uuid, 'reverseRelated', t.item - 1, t.value
FROM tokens AS k CROSS JOIN UNNEST(k.reverse_related) WITH ORDINALITY AS t(value, item)
UNION ALL
-- related_cards is keyed by its owner's uuid: the owner is the record of
-- that uuid (DISTINCT: records given twice with one uuid are one owner).
SELECT DISTINCT o.set_code, o.kind, o.position, o.uuid, 'relatedCards.reverseRelated', t.item - 1, t.value
FROM related_cards AS r
JOIN reference_records AS o ON o.uuid = r.uuid AND o.kind <> 'sealed'
CROSS JOIN UNNEST(r.reverse_related) WITH ORDINALITY AS t(value, item)
UNION ALL
SELECT DISTINCT o.set_code, o.kind, o.position, o.uuid, 'relatedCards.spellbook', t.item - 1, t.value
FROM related_cards AS r
JOIN reference_records AS o ON o.uuid = r.uuid AND o.kind <> 'sealed'
CROSS JOIN UNNEST(r.spellbook) WITH ORDINALITY AS t(value, item)
