//! `cardkit fields`, `cardkit explain` and `cardkit schema` as a user runs
//! them: their output (snapshots of the human-facing text), exit statuses and
//! usage errors.

use crate::support;

use cardkit::schema::json_schema::{json_schema, json_schema_with, SchemaOptions};
use cardkit::Code;
use cardkit::Kind;
use cardkit_run::explain::explain;
use predicates::str::contains;
use serde_json::Value;
use support::{cardkit, stdout_of as run};

/// Runs `cardkit ARGS…`, expects exit status 2 and nothing on standard
/// output, and returns standard error.
fn usage_error(args: &[&str]) -> String {
    let output = cardkit().args(args).assert().code(2).get_output().clone();
    assert!(output.stdout.is_empty(), "{args:?} printed on stdout");
    String::from_utf8(output.stderr).expect("UTF-8 output")
}

#[test]
fn fields_of_a_card_show_unions_and_recursion() {
    assert_snapshot!("fields_card", run(&["fields", "card"], 0));
}

#[test]
fn fields_since_a_version() {
    let listing = run(&["fields", "set", "--since", "v5.2.1"], 0);
    assert_snapshot!("fields_set_since_v5_2_1", listing);
    // The bound is inclusive, and a version without the leading `v` works.
    assert_eq!(run(&["fields", "set", "--since", "5.2.1"], 0), listing);
    let older = run(&["fields", "set", "--since", "v5.2.0"], 0);
    assert!(older.lines().count() > listing.lines().count());
    assert!(older.contains("/cards/*/finishes") && !listing.contains("/cards/*/finishes"));
}

#[test]
fn fields_since_leave_out_fields_without_a_version_tag() {
    let listing = run(&["fields", "template", "--since", "v4.0.0"], 0);
    assert_eq!(listing.lines().nth(1), Some("(no field matches)"));
}

#[test]
fn deprecated_fields_as_json() {
    let listing: Value = serde_json::from_str(&run(
        &["fields", "set", "--deprecated", "--format", "json"],
        0,
    ))
    .expect("JSON");
    let pointers: Vec<&str> = listing
        .as_array()
        .expect("an array")
        .iter()
        .map(|f| {
            assert_eq!(f["deprecated"], true);
            assert_eq!(f["member"], "field");
            f["pointer"].as_str().expect("a pointer")
        })
        .collect();
    assert_eq!(
        pointers,
        [
            "/cards/*/convertedManaCost",
            "/cards/*/faceConvertedManaCost",
            "/cards/*/hasFoil",
            "/cards/*/hasNonFoil",
            "/tokens/*/hasFoil",
            "/tokens/*/hasNonFoil",
            "/tokens/*/reverseRelated",
        ]
    );
}

#[test]
fn every_field_as_json() {
    let listing: Value =
        serde_json::from_str(&run(&["fields", "set", "--format", "json"], 0)).expect("JSON");
    let shop = listing
        .as_array()
        .expect("an array")
        .iter()
        .find(|f| f["pointer"] == "/sealedProduct/*/identifiers/shopAId")
        .expect("listed");
    assert_eq!(shop["model"], "Identifiers");
    assert_eq!(shop["required"], false);
    assert_eq!(shop["nullable"], true);
    assert_eq!(shop["default"], Value::Null);
    assert_eq!(shop["since"], "v5.0.0");

    let card: Value =
        serde_json::from_str(&run(&["fields", "card", "--format", "json"], 0)).expect("JSON");
    let repeat = card
        .as_array()
        .expect("an array")
        .iter()
        .find(|f| f["member"] == "repeat")
        .expect("the recursion is listed");
    assert_eq!(repeat["pointer"], "/data/children/*");
    assert_eq!(repeat["repeats"], "/data");
    assert_eq!(
        repeat["when"],
        serde_json::json!([{"at": "/data/children/*", "tag": "type", "value": "group"}])
    );
}

#[test]
fn explain_a_field_by_index_or_star() {
    let by_index = run(&["explain", "set", "/cards/3/identifiers/shopAId"], 0);
    assert_snapshot!("explain_set_shop_a_id", by_index);
    assert_eq!(
        run(&["explain", "set", "/cards/*/identifiers/shopAId"], 0),
        by_index
    );
}

#[test]
fn explain_a_required_nullable_field_with_a_format() {
    assert_snapshot!(
        "explain_set_sealed_product",
        run(&["explain", "set", "/sealedProduct"], 0)
    );
    assert_snapshot!(
        "explain_migration_uri",
        run(&["explain", "migration", "/uri"], 0)
    );
}

#[test]
fn explain_a_member_of_every_union_branch() {
    assert_snapshot!(
        "explain_card_child_name",
        run(&["explain", "card", "/data/children/0/name"], 0)
    );
    assert_snapshot!(
        "explain_card_child_tag",
        run(&["explain", "card", "/data/children/*/type"], 0)
    );
    assert_snapshot!(
        "explain_template_list_item",
        run(&["explain", "template", "/card/data/children/0/masks/1"], 0)
    );
}

#[test]
fn explain_as_json() {
    let printed: Value = serde_json::from_str(&run(
        &[
            "explain",
            "--format",
            "json",
            "card",
            "/data/children/0/name",
        ],
        0,
    ))
    .expect("JSON");
    let library = explain(Kind::Card, "/data/children/0/name").expect("a field");
    assert_eq!(printed, serde_json::to_value(&library).expect("JSON"));
    assert_eq!(printed["kind"], "card");
    assert_eq!(printed["pointer"], "/data/children/0/name");
    let places = printed["places"].as_array().expect("an array");
    assert_eq!(places.len(), 3);
    assert_eq!(places[1]["pointer"], "/data/children/*/name");
    assert_eq!(places[1]["lines"][0]["label"], "when");
    assert_eq!(
        places[1]["lines"][0]["text"],
        "/data/children/* has \"type\": \"image\""
    );
    assert_eq!(places[1]["row"]["model"], "Image");
    assert_eq!(places[1]["row"]["nullable"], true);
    // The text is the same lines.
    let text = run(&["explain", "card", "/data/children/0/name"], 0);
    assert_eq!(text, library.text());
    // Errors are the same with either format.
    let error = usage_error(&["explain", "--format", "json", "set", "/cards/uuid"]);
    assert!(error.contains("did you mean `/cards/*/uuid`?"), "{error}");
}

#[test]
fn explain_keys_with_spaces_and_escapes() {
    let found = run(&["explain", "set", "/translations/Portuguese (Brazil)"], 0);
    assert!(
        found.contains("Translations.Portuguese (Brazil)"),
        "{found}"
    );
    let error = usage_error(&["explain", "set", "/translations/Portuguese~2"]);
    assert!(error.contains("`~` must be followed by 0 or 1"), "{error}");
}

#[test]
fn explain_an_unknown_pointer_names_the_nearest() {
    let error = usage_error(&["explain", "set", "/cards/0/identifiers/shopAid"]);
    assert_snapshot!("explain_unknown_pointer", error);
    let error = usage_error(&["explain", "set", "/cards/uuid"]);
    assert!(error.contains("did you mean `/cards/*/uuid`?"), "{error}");
    let error = usage_error(&["explain", "set", "/nothingLikeIt"]);
    assert!(!error.contains("did you mean"), "{error}");
    let error = usage_error(&["explain", "set", "code"]);
    assert!(error.contains("starts with `/`"), "{error}");
}

#[test]
fn explain_a_pointer_from_the_file_root() {
    let text = run(&["explain", "set", "/data/NEO/cards/3/uuid"], 0);
    let (in_file, rest) = text.split_once("\n\n").expect("a blank line");
    assert_eq!(
        in_file,
        "in file: /data/NEO is a set of a catalog ({\"meta\": …, \"data\": {\"<CODE>\": <Set>, …}}); \
         within it, /cards/3/uuid"
    );
    // Then the explanation of the document's own pointer.
    assert_eq!(rest, run(&["explain", "set", "/cards/3/uuid"], 0));
    for (kind, pointer, layout) in [
        ("set", "/data/cards/0/language", "wrapped"),
        ("set", "/ARC/cards/0/uuid", "code_map"),
        ("migration", "/data/0/uri", "list"),
        ("template", "/0/card/name", "array"),
    ] {
        let printed: Value =
            serde_json::from_str(&run(&["explain", "--format", "json", kind, pointer], 0))
                .expect("JSON");
        assert_eq!(printed["pointer"], pointer);
        assert_eq!(printed["in_file"]["layout"], layout, "{pointer}");
        let document = printed["in_file"]["document"].as_str().expect("a string");
        let within = printed["in_file"]["pointer"].as_str().expect("a string");
        assert_eq!(format!("{document}{within}"), pointer);
    }
    // A pointer from the document's root says nothing of a file.
    let printed: Value =
        serde_json::from_str(&run(&["explain", "--format", "json", "set", "/code"], 0))
            .expect("JSON");
    assert!(printed.get("in_file").is_none(), "{printed}");
    let error = usage_error(&["explain", "set", "/data/cards/0/flavr"]);
    assert!(
        error.contains("did you mean `/data/cards/0/flavorText`?"),
        "{error}"
    );
}

#[test]
fn explain_a_model_field() {
    let text = run(&["explain", "set", "Identifiers.shopAId"], 0);
    assert!(
        text.starts_with("`Identifiers.shopAId` is at 3 places of a set.\n\n"),
        "{text}"
    );
    assert!(
        text.contains("\n/tokens/*/identifiers/shopAId (set)\n"),
        "{text}"
    );
    let printed: Value = serde_json::from_str(&run(
        &["explain", "--format", "json", "set", "CardSet.language"],
        0,
    ))
    .expect("JSON");
    assert_eq!(printed["field"], "CardSet.language");
    assert!(printed.get("pointer").is_none(), "{printed}");
    assert_eq!(printed["places"][0]["pointer"], "/cards/*/language");
    let error = usage_error(&["explain", "set", "Set.tokenSetCode"]);
    assert!(
        error.contains("did you mean `Set.tokenSetcode`?"),
        "{error}"
    );
}

#[test]
fn explain_a_pointer_without_its_slash_suggests_it() {
    let error = usage_error(&["explain", "set", "cards/0/uuid"]);
    assert!(error.contains("starts with `/`"), "{error}");
    assert!(error.contains("did you mean `/cards/0/uuid`?"), "{error}");
}

#[test]
fn explain_a_code() {
    let text = run(&["explain", "missing_field"], 0);
    assert!(
        text.starts_with("missing_field (error)\n\nA required member"),
        "{text}"
    );
    assert!(text.contains("`cardkit validate example.json`"), "{text}");
    assert!(
        text.contains("example.json:1:1: error[missing_field]: missing required field"),
        "{text}"
    );
    assert!(text.contains("\nHow to fix it: "), "{text}");
    let printed: Value =
        serde_json::from_str(&run(&["explain", "--format", "json", "newer_field"], 0))
            .expect("JSON");
    assert_eq!(printed["code"], "newer_field");
    assert_eq!(printed["severity"], "warning");
    assert_eq!(
        printed["command"],
        "cardkit validate --as-of v5.2.0 example.json"
    );
    assert_eq!(printed["diagnostics"][0]["code"], "newer_field");
    for code in Code::ALL {
        let text = run(&["explain", code.as_str()], 0);
        // A build without `import` (no feature `design`) cannot show what
        // importing the example of an import's code reports.
        if cfg!(feature = "design") || !code.is_import() {
            assert!(text.contains(&format!("[{code}]: ")), "{text}");
        }
    }
    let error = usage_error(&["explain", "missing_field", "/uri"]);
    assert!(error.contains("`missing_field` is a code"), "{error}");
    let error = usage_error(&["explain", "set"]);
    assert!(error.contains("name the field after it"), "{error}");
    let error = usage_error(&["explain", "missing_feild"]);
    assert!(
        error.contains("a similar value exists: 'missing_field'"),
        "{error}"
    );
}

#[test]
fn kinds_and_codes_never_share_a_name() {
    for kind in Kind::ALL {
        assert!(kind.as_str().parse::<Code>().is_err(), "{kind}");
    }
    for code in Code::ALL {
        assert!(code.as_str().parse::<Kind>().is_err(), "{code}");
    }
}

/// `/data`, `levels` × `/children/0`, then `/type`.
fn deep_pointer(levels: usize) -> String {
    format!("/data{}/type", "/children/0".repeat(levels))
}

#[test]
fn explain_refuses_pointers_deeper_than_documents_nest() {
    for levels in [1600, 5000] {
        let pointer = deep_pointer(levels);
        let error = usage_error(&["explain", "card", &pointer]);
        assert!(
            error.contains(&format!(
                "the pointer is {} levels deep, deeper than documents may nest",
                2 * levels + 2
            )),
            "{}",
            &error[error.len().saturating_sub(300)..]
        );
        // The start and the end of the pointer, and one sentence.
        assert!(error.len() < 400, "{error}");
        let (head, tail) = (&pointer[..80], &pointer[pointer.len() - 40..]);
        assert!(error.contains(&format!("`{head}…{tail}`")), "{error}");
    }
}

#[test]
fn explain_a_pointer_as_deep_as_documents_nest() {
    // 1 + 2 × 549 + 1 = 1100 reference tokens, the most a document nests.
    let pointer = deep_pointer(549);
    let explained = run(&["explain", "card", &pointer], 0);
    // The 548 groups around the tag are said once, not once per level.
    let when: Vec<&str> = explained
        .lines()
        .filter(|line| line.trim_start().starts_with("when"))
        .collect();
    assert_eq!(when.len(), 1, "{when:?}");
    assert!(
        when[0].contains("the 548 values from /data/children/* to /data/children/*/children/*"),
        "{}",
        &when[0][..200]
    );
    assert!(
        explained.len() < 3 * pointer.len(),
        "{} bytes",
        explained.len()
    );
    let half = run(&["explain", "card", &deep_pointer(274)], 0);
    assert!(explained.len() < 5 * half.len() / 2);
}

#[test]
fn schema_prints_the_library_schema() {
    for &kind in Kind::ALL {
        let printed: Value =
            serde_json::from_str(&run(&["schema", kind.as_str()], 0)).expect("JSON");
        assert_eq!(printed, json_schema(kind), "{kind}");
    }
}

#[test]
fn schema_options_print_the_library_schema_with_them() {
    let printed = |args: &[&str]| -> Value { serde_json::from_str(&run(args, 0)).expect("JSON") };
    let as_of: cardkit::schema::Version = "v5.0.0".parse().expect("a version");
    for (container, layout) in [
        ("wrapped", cardkit::model::Layout::Wrapped),
        ("catalog", cardkit::model::Layout::Catalog),
        ("code-map", cardkit::model::Layout::CodeMap),
        ("list", cardkit::model::Layout::List),
        ("array", cardkit::model::Layout::Array),
    ] {
        let options = SchemaOptions {
            container: layout,
            as_of: Some(as_of),
            annotations: true,
            ..SchemaOptions::default()
        };
        assert_eq!(
            printed(&[
                "schema",
                "set",
                "--container",
                container,
                "--as-of",
                "5.0.0",
                "--annotations"
            ]),
            json_schema_with(Kind::Set, &options),
            "{container}"
        );
    }
    let default = printed(&["schema", "set"]).to_string();
    assert!(!default.contains("x-since") && default.contains("Since v5.2.0."));
    let annotated = printed(&["schema", "set", "--annotations"]).to_string();
    assert!(annotated.contains(r#""x-since":"v5.2.0""#));
    let card = printed(&["schema", "card", "--annotations"]);
    assert_eq!(card["$defs"]["color"]["format"], "color");
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["fields"][..],
        &["fields", "sett"],
        &["fields", "auto"],
        &["fields", "set", "--since", "5.x"],
        &["fields", "set", "--since"],
        &["fields", "set", "--format", "yaml"],
        &["explain", "set"],
        &["explain", "sets", "/code"],
        &["schema"],
        &["schema", "migrations"],
        &["schema", "set", "--container", "bare"],
        &["schema", "set", "--container", "catalogue"],
        &["schema", "set", "--as-of", "auto"],
        &["schema", "set", "--as-of", "v3.0.0"],
        &["schema", "set", "--as-of", "5"],
    ] {
        let error = usage_error(args);
        assert!(
            error.contains("Usage:") || error.contains("error:"),
            "{args:?}: {error}"
        );
    }
    let error = usage_error(&["fields", "sett"]);
    assert!(
        error.contains("[possible values: template, card, set, migration]"),
        "{error}"
    );
    let error = usage_error(&["fields", "set", "--since", "5.x"]);
    assert!(error.contains("`5.x` is not a version tag"), "{error}");
}

#[test]
fn help_explains_every_flag_with_examples() {
    for (command, flags) in [
        ("fields", &["--since", "--deprecated", "--format"][..]),
        ("explain", &["--format"][..]),
        ("schema", &[][..]),
    ] {
        let help = run(&[command, "--help"], 0);
        for flag in flags {
            assert!(
                help.contains(flag),
                "{command} --help does not mention {flag}"
            );
        }
        // One example per argument and flag, and examples of the command.
        let arguments = 1 + usize::from(command == "explain") + flags.len();
        assert!(
            help.matches("Example: ").count() >= arguments,
            "{command} --help:\n{help}"
        );
    }
    cardkit()
        .arg("--help")
        .assert()
        .code(0)
        .stdout(contains("fields"))
        .stdout(contains("explain"))
        .stdout(contains("schema"));
}
