//! Generated documents and single-defect mutants (part 3): the schema's
//! verdict and cardkit's agree on each.

use super::*;

/// Generated documents per kind: 256 unless `CARDKIT_SCHEMA_CASES` says
/// otherwise; a fixed seed unless `CARDKIT_PROPTEST_SEED` says otherwise.
/// Each document brings [`MUTANTS`] mutants.
fn config() -> Config {
    let cases = std::env::var("CARDKIT_SCHEMA_CASES")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or(256);
    let seed = std::env::var("CARDKIT_PROPTEST_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5C4E_3A00_2020);
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        max_shrink_iters: 1024,
        ..Config::default()
    }
}

/// Mutants checked per generated document.
const MUTANTS: usize = 40;

fn check_agreement(
    kind: Kind,
    doc: &Node,
    style: support::generate::Style,
    picks: &[(Index, Index)],
) -> Result<(), TestCaseError> {
    let text = write(doc, style);
    if let Some(d) = compare_text(kind, &text)? {
        return Err(TestCaseError::fail(format!("{}\n{text}", d.details)));
    }
    let mut all = Vec::new();
    mutations(doc, &mut Vec::new(), "", None, &mut all);
    for pick in picks {
        let [mutation] = &choose(&all, std::slice::from_ref(pick))[..] else {
            unreachable!("one pick chooses one mutation");
        };
        let mut broken = doc.clone();
        apply(&mut broken, &mutation.path, &mutation.op);
        let text = write(&broken, style);
        let disagreement = compare_text(kind, &text)?;
        match (mutation_difference(mutation), disagreement) {
            (None, None) => {}
            // Listed differences must really be differences.
            (Some(_), Some(_)) => {}
            (Some(difference), None) => {
                return Err(TestCaseError::fail(format!(
                    "{difference:?} was expected for {mutation:?}, but the verdicts agree\n{text}"
                )))
            }
            (None, Some(d)) => {
                return Err(TestCaseError::fail(format!(
                    "{}\nmutation {mutation:?}\n{text}",
                    d.details
                )))
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn generated_templates_agree(
        doc in document(Kind::Template),
        style in style(),
        picks in prop::collection::vec(any::<(Index, Index)>(), MUTANTS),
    ) {
        check_agreement(Kind::Template, &doc, style, &picks)?;
    }

    #[test]
    fn generated_cards_agree(
        doc in document(Kind::Card),
        style in style(),
        picks in prop::collection::vec(any::<(Index, Index)>(), MUTANTS),
    ) {
        check_agreement(Kind::Card, &doc, style, &picks)?;
    }

    #[test]
    fn generated_sets_agree(
        doc in document(Kind::Set),
        style in style(),
        picks in prop::collection::vec(any::<(Index, Index)>(), MUTANTS),
    ) {
        check_agreement(Kind::Set, &doc, style, &picks)?;
    }

    #[test]
    fn generated_migrations_agree(
        doc in document(Kind::Migration),
        style in style(),
        picks in prop::collection::vec(any::<(Index, Index)>(), MUTANTS),
    ) {
        check_agreement(Kind::Migration, &doc, style, &picks)?;
    }
}
