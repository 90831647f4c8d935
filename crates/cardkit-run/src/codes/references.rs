//! The codes of `--references` explained: each example is a set (or a
//! catalog of two) whose references break one rule.

use cardkit::diagnostic::Code;

/// A card of set `$set` with the members every card must have, then
/// `$rest`.
macro_rules! printing {
    ($uuid:literal, $number:literal, $set:literal $(, $rest:literal)*) => {
        concat!(
            "    {\"uuid\": \"", $uuid, "\", \"number\": \"", $number, "\", \"setCode\": \"", $set, "\",\n",
            "     \"name\": \"Fire Elemental\", \"language\": \"English\", \"layout\": \"normal\",\n",
            "     \"type\": \"Creature — Elemental\", \"types\": [\"Creature\"], \"subtypes\": [\"Elemental\"],\n",
            "     \"supertypes\": [], \"colors\": [\"R\"], \"colorIdentity\": [\"R\"], \"availability\": [\"paper\"],\n",
            "     \"finishes\": [\"nonfoil\"], \"borderColor\": \"black\", \"frameVersion\": \"2015\",\n",
            "     \"hasFoil\": false, \"hasNonFoil\": true, \"convertedManaCost\": 5, \"manaValue\": 5,\n",
            "     \"rarity\": \"common\", \"foreignData\": [], \"identifiers\": {}, \"legalities\": {},\n",
            "     \"purchaseUrls\": {}", $($rest,)* "}"
        )
    };
}

/// A set of code `$code` with `$cards`, and the members a set must have.
macro_rules! set_of {
    ($code:literal, $first:expr $(, $cards:expr)*) => {
        concat!(
            "{\n",
            "  \"code\": \"", $code, "\", \"name\": \"Test Set\", \"type\": \"expansion\", \"releaseDate\": \"2024-01-05\",\n",
            "  \"baseSetSize\": 2, \"totalSetSize\": 2, \"isFoilOnly\": false, \"isOnlineOnly\": false,\n",
            "  \"iconCode\": \"tst\", \"languages\": [\"English\"], \"translations\": {},\n",
            "  \"tokens\": [], \"sealedProduct\": null,\n",
            "  \"cards\": [\n",
            $first,
            $(",\n", $cards,)*
            "\n  ]\n}\n"
        )
    };
}

/// What the code means, an example (validated with `--references`), and
/// how to fix it.
pub(super) fn explanation(code: Code) -> (&'static str, &'static str, &'static str) {
    match code {
        Code::DanglingReference => (
            "`--references`: a member names a record (by `uuid`), a card (by name) or a set \
             (by code) that none of the documents read holds: an `otherFaceIds`, \
             `variations`, `originalPrintings` or `rebalancedPrintings` id, a \
             `reverseRelated` or `spellbook` name, a `parentCode`, `tokenSetcode` or token's \
             `setCode`. References to printings, cards and sets that may be in other sets are \
             checked only when the run reads a whole catalog. A warning; an error with \
             `--references=error`.",
            (set_of!(
                "TST",
                printing!(
                    "5f8d1a2e-3b4c-4d5e-8f6a-7b8c9d0e1f2a",
                    "1",
                    "TST",
                    ",\n     \"side\": \"a\", \"otherFaceIds\": [\"0d5e6f70-8192-4a3b-8c4d-5e6f70819203\"]"
                )
            )),
            "add the record, card or set named to the documents checked (a whole catalog holds \
             every one), or correct the id, name or code.",
        ),
        Code::DuplicateId => (
            "`--references`: a `uuid` that another card, token or sealed product of the \
             documents read has too, or a set `code` that another set has: ids identify one \
             record across a catalog. The diagnostic names where the id was first given. A \
             warning; an error with `--references=error`.",
            (set_of!(
                "TST",
                printing!("5f8d1a2e-3b4c-4d5e-8f6a-7b8c9d0e1f2a", "1", "TST"),
                printing!("5f8d1a2e-3b4c-4d5e-8f6a-7b8c9d0e1f2a", "2", "TST")
            )),
            "give each record its own id; when the two records are the same printing given \
             twice, keep one.",
        ),
        Code::DuplicatePrinting => (
            "`--references`: two cards (or two tokens) of one set with the same `number`, \
             `side` and `language`: the same printing twice. A warning; an error with \
             `--references=error`.",
            (set_of!(
                "TST",
                printing!("5f8d1a2e-3b4c-4d5e-8f6a-7b8c9d0e1f2a", "1", "TST"),
                printing!("0d5e6f70-8192-4a3b-8c4d-5e6f70819203", "1", "TST")
            )),
            "correct the number (or side) of one of them, or keep one record of the printing.",
        ),
        Code::SetCodeMismatch => (
            "`--references`: a card's `setCode` is not the code of the set it is in, or a \
             token's is neither its set's code nor the set's `tokenSetcode`. A warning; an \
             error with `--references=error`.",
            (set_of!(
                "TST",
                printing!("5f8d1a2e-3b4c-4d5e-8f6a-7b8c9d0e1f2a", "1", "TSX")
            )),
            "write the set's code in the card's `setCode`, or move the card to the set it names.",
        ),
        Code::AsymmetricFaces => (
            "`--references`: a card names another card of its set as one of its other faces \
             (`otherFaceIds`), and that face does not name it back: the faces of one card \
             name each other. A warning; an error with `--references=error`.",
            (set_of!(
                "TST",
                printing!(
                    "5f8d1a2e-3b4c-4d5e-8f6a-7b8c9d0e1f2a",
                    "1",
                    "TST",
                    ",\n     \"side\": \"a\", \"otherFaceIds\": [\"0d5e6f70-8192-4a3b-8c4d-5e6f70819203\"]"
                ),
                printing!(
                    "0d5e6f70-8192-4a3b-8c4d-5e6f70819203",
                    "1",
                    "TST",
                    ",\n     \"side\": \"b\""
                )
            )),
            "add the card's id to its face's `otherFaceIds`, or take the face out of the \
             card's.",
        ),
        Code::VariationElsewhere => (
            "`--references`: a card names as one of its `variations` a record of another set: \
             variations are the same card's other printings in its own set (other art, \
             other frames). A warning; an error with `--references=error`.",
            (concat!(
                "{\"TST\": ",
                set_of!(
                    "TST",
                    printing!(
                        "5f8d1a2e-3b4c-4d5e-8f6a-7b8c9d0e1f2a",
                        "1",
                        "TST",
                        ",\n     \"variations\": [\"0d5e6f70-8192-4a3b-8c4d-5e6f70819203\"]"
                    )
                ),
                ",\n\"TSU\": ",
                set_of!(
                    "TSU",
                    printing!("0d5e6f70-8192-4a3b-8c4d-5e6f70819203", "1", "TSU")
                ),
                "}\n"
            )),
            "name only printings of the card's own set in `variations`; a printing elsewhere is \
             in `printings` (by set code) or found by the card's name.",
        ),
        _ => unreachable!("{code} is no code of the references"),
    }
}
