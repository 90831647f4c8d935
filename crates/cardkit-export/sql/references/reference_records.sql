-- Every card, sealed product and token, with what the reference rules
-- read of it; `ordinal` orders the records of a set as a set document
-- lists them (its members in the publisher's alphabetical order: cards,
-- sealedProduct, tokens), so that "the first" of two is the streaming
-- check's.
SELECT parent_set_code AS set_code, 'card' AS kind, 0 AS ordinal, position,
       uuid, number, side, language, set_code AS record_set_code, name, face_name
FROM cards
UNION ALL
SELECT set_code, 'sealed', 1, position,
       uuid, NULL, NULL, NULL, NULL, NULL, NULL
FROM sealed_products
UNION ALL
SELECT parent_set_code, 'token', 2, position,
       uuid, number, side, language, set_code, name, face_name
FROM tokens
