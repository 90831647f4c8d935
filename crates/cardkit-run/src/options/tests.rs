//! The table of options' tests: every surface names each option as the table says.

use super::*;

#[test]
fn each_setting_is_the_index_of_its_definition() {
    for (at, setting) in Setting::ALL.into_iter().enumerate() {
        assert_eq!(setting as usize, at);
        assert_eq!(Setting::of_key(setting.key()), Some(setting));
    }
    assert_eq!(
        Setting::WarningLimit.def().default,
        Some(
            cardkit::report::WarningFilter::DEFAULT_LIMIT
                .to_string()
                .as_str()
        )
    );
    assert!(Setting::Jobs
        .def()
        .help
        .contains(&crate::MAX_JOBS.to_string()));
}

#[test]
fn every_surface_says_an_option_its_own_way() {
    let all = |setting, value| {
        [
            Surface::CommandLine,
            Surface::Config,
            Surface::Query,
            Surface::Python,
        ]
        .map(|surface| said(setting, value, surface))
    };
    assert_eq!(
        all(Setting::AsOf, "v5.0.0"),
        [
            "--as-of v5.0.0",
            "as-of = \"v5.0.0\"",
            "?as_of=v5.0.0",
            "as_of=\"v5.0.0\""
        ]
    );
    assert_eq!(
        all(Setting::StrictVersion, "true"),
        [
            "--strict-version",
            "strict-version = true",
            "?strict_version=true",
            "strict_version=True"
        ]
    );
    assert_eq!(
        all(Setting::Warn, "deprecated"),
        [
            "--warn deprecated",
            "warn = [\"deprecated\"]",
            "?warn=deprecated",
            "warn_deprecated=True"
        ]
    );
    assert_eq!(said(Setting::Jobs, "2", Surface::Query), "jobs = 2");
}

#[test]
fn the_as_of_pattern_starts_at_the_first_version() {
    assert_eq!(first_version().to_string(), "v4.0.0");
    assert_eq!(
        as_of_pattern(),
        r"^(auto|latest|v?([4-9]|[1-9][0-9]{1,8})\.(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8}))$"
    );
    assert_eq!(at_least(12), "(12|[2-9][0-9]{1}|1[3-9]|[1-9][0-9]{2,8})");
}

#[test]
fn help_names_options_as_the_surface_does() {
    let strict = Setting::Strict.def();
    assert_eq!(
        strict.help_for(Surface::CommandLine),
        "Checks against the spec itself: its names and the latest version \
         (`--names spec --as-of latest`), whatever a file uses or declares. \
         Example: --strict"
    );
    assert!(strict
        .help_for(Surface::Query)
        .contains("(`?names=spec&as_of=latest`)"));
    assert_eq!(
        Setting::StrictVersion.def().help_for(Surface::Query),
        "With `as_of`, makes fields newer than that version errors instead of \
         warnings. Example: ?as_of=v4.6.0&strict_version=true"
    );
    for def in &OPTIONS {
        for surface in [Surface::CommandLine, Surface::Query, Surface::Python] {
            assert!(!def.help_for(surface).contains('{'), "{}", def.key);
        }
    }
}
