-- reference_items.sql in Spark SQL, which has no UNNEST ... WITH
-- ORDINALITY: LATERAL VIEW posexplode gives each item and its place
-- (from 0). The same rows.
SELECT c.parent_set_code AS set_code, 'card' AS kind, c.position, c.uuid,
       'otherFaceIds' AS field, t.item, t.value
FROM cards AS c LATERAL VIEW posexplode(c.other_face_ids) t AS item, value
UNION ALL
SELECT c.parent_set_code, 'card', c.position, c.uuid, 'variations', t.item, t.value
FROM cards AS c LATERAL VIEW posexplode(c.variations) t AS item, value
UNION ALL
SELECT c.parent_set_code, 'card', c.position, c.uuid, 'originalPrintings', t.item, t.value
FROM cards AS c LATERAL VIEW posexplode(c.original_printings) t AS item, value
UNION ALL
SELECT c.parent_set_code, 'card', c.position, c.uuid, 'rebalancedPrintings', t.item, t.value
FROM cards AS c LATERAL VIEW posexplode(c.rebalanced_printings) t AS item, value
UNION ALL
SELECT k.parent_set_code, 'token', k.position, k.uuid, 'otherFaceIds', t.item, t.value
FROM tokens AS k LATERAL VIEW posexplode(k.other_face_ids) t AS item, value
UNION ALL
SELECT k.parent_set_code, 'token', k.position, k.uuid, 'reverseRelated', t.item, t.value
FROM tokens AS k LATERAL VIEW posexplode(k.reverse_related) t AS item, value
UNION ALL
SELECT DISTINCT o.set_code, o.kind, o.position, o.uuid, 'relatedCards.reverseRelated', t.item, t.value
FROM related_cards AS r
JOIN reference_records AS o ON o.uuid = r.uuid AND o.kind <> 'sealed'
LATERAL VIEW posexplode(r.reverse_related) t AS item, value
UNION ALL
SELECT DISTINCT o.set_code, o.kind, o.position, o.uuid, 'relatedCards.spellbook', t.item, t.value
FROM related_cards AS r
JOIN reference_records AS o ON o.uuid = r.uuid AND o.kind <> 'sealed'
LATERAL VIEW posexplode(r.spellbook) t AS item, value
