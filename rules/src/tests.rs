use super::*;

#[test]
fn fingerprint_is_sha256_prefix_of_rule_and_entity() {
    // printf 'resurrected-container\ncontainer:1051' | sha256sum | cut -c1-16
    assert_eq!(
        fingerprint("resurrected-container", &Entity::Container(1051)),
        "8e6488650462a0f2"
    );
}

#[test]
fn settings_read_durations_and_numbers_else_their_defaults() {
    const WAIT: SettingDoc = SettingDoc {
        key: "ozone.scm.close.container.wait.duration",
        default: "150s",
        default_from: "",
        used_for: "",
    };
    const COUNT: SettingDoc = SettingDoc {
        key: "ozone.scm.heartbeat.rpc-retry-count",
        default: "15",
        default_from: "",
        used_for: "",
    };
    let mut settings = Settings::default();
    assert_eq!(settings.duration_ms(&WAIT), 150_000);
    assert_eq!(settings.number(&COUNT, 0), 15);
    settings.set(WAIT.key, "2m", "ozone-site.xml");
    settings.set(COUNT.key, "0", "--set");
    assert_eq!(settings.duration_ms(&WAIT), 120_000);
    assert_eq!(settings.number(&COUNT, 0), 0);
    assert_eq!(settings.number(&COUNT, 1), 15, "below the minimum");
    settings.set(WAIT.key, "soon", "--set");
    settings.set(COUNT.key, "many", "--set");
    assert_eq!(settings.duration_ms(&WAIT), 150_000);
    assert_eq!(settings.number(&COUNT, 0), 15);
}

#[test]
fn every_rule_declares_catalogued_kinds() {
    for rule in registry() {
        assert_eq!(
            oztrace_analyzer::kinds::unknown(rule.doc().consumes),
            Vec::<&str>::new(),
            "{}",
            rule.doc().id
        );
        assert!(!rule.doc().consumes.is_empty(), "{}", rule.doc().id);
    }
}

/// A machine a rule names and the registry lacks would be left out of `scan`'s replay without a
/// word.
#[test]
fn every_rule_declares_registered_machines() {
    let registered = oztrace_analyzer::machines::names();
    for rule in registry() {
        for machine in rule.doc().machines {
            assert!(registered.contains(machine), "{}: {machine}", rule.doc().id);
        }
    }
}

#[test]
fn confidence_orders_and_parses() {
    assert!(Confidence::Possible < Confidence::Likely);
    assert!(Confidence::Likely < Confidence::Confirmed);
    assert_eq!(Confidence::parse("likely"), Some(Confidence::Likely));
    assert_eq!(Confidence::parse("sure"), None);
}

#[test]
fn logging_coverage_matches_full_and_abbreviated_names() {
    let mut cov = LoggingCoverage::default();
    cov.record(
        "dn1",
        "org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask",
        "DEBUG",
    );
    assert!(cov.enabled("dn1", "endpoint.HeartbeatEndpointTask", "DEBUG"));
    assert!(cov.enabled(
        "dn1",
        "org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask",
        "DEBUG"
    ));
    assert!(!cov.enabled("dn1", "org.apache.ratis.server.raftlog.RaftLog", "TRACE"));
    assert!(!cov.enabled("dn2", "endpoint.HeartbeatEndpointTask", "DEBUG"));
}

/// Every rule's documentation: a title, then each section in order, and no other heading.
#[test]
fn every_rule_documents_each_section_in_order() {
    let expected: Vec<&str> = Section::ALL.iter().map(|s| s.heading()).collect();
    for rule in registry() {
        let doc = rule.doc();
        assert!(
            !doc.title().is_empty() && !doc.title().starts_with('#'),
            "{}: the doc comment's first line is the title",
            doc.id
        );
        let headings: Vec<&str> = doc
            .markdown
            .lines()
            .filter_map(|line| line.trim_start().strip_prefix("## "))
            .collect();
        assert_eq!(headings, expected, "{}", doc.id);
        for section in Section::ALL {
            assert!(
                !doc.section(section).is_empty(),
                "{}: `## {}` is empty",
                doc.id,
                section.heading()
            );
        }
    }
}

/// The log lines of each rule's example, read as oztrace reads a log file, are records of the
/// kinds its `Kinds:` line names, in order.
#[test]
fn every_rule_example_classifies_as_the_kinds_it_names() {
    for rule in registry() {
        let doc = rule.doc();
        let (logs, named) = example(&doc.section(Section::Example));
        assert!(!logs.is_empty(), "{}: no ```text block", doc.id);
        assert!(!named.is_empty(), "{}: no `Kinds:` line", doc.id);
        let kinds: Vec<&str> = logs.iter().flat_map(|log| kinds_of_log(log)).collect();
        assert_eq!(kinds, named, "{}", doc.id);
    }
}

/// An example section's ```` ```text ```` blocks (one log file each) and the kinds its
/// ``Kinds: `a`, `b`.`` paragraph names.
fn example(section: &str) -> (Vec<String>, Vec<String>) {
    let mut logs = Vec::new();
    let mut block: Option<String> = None;
    let mut kinds = String::new();
    for line in section.lines() {
        match (&mut block, line.trim_end()) {
            (None, "```text") => block = Some(String::new()),
            (Some(_), "```") => logs.extend(block.take()),
            (Some(text), _) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, _) if line.starts_with("Kinds:") || !kinds.is_empty() => {
                if line.trim().is_empty() {
                    break;
                }
                kinds.push_str(line);
            }
            (None, _) => {}
        }
    }
    let named = kinds
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    (logs, named)
}

/// The kinds of the records of one log file's text, unrecognized ones as `unrecognized`.
fn kinds_of_log(text: &str) -> Vec<&'static str> {
    use oztrace_analyzer::load::{Keep, ReadConfig, read_inputs_streaming};
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("example.log");
    std::fs::write(&path, text).expect("the example written");
    let parsed = read_inputs_streaming(&[path], &ReadConfig::new(Keep::All), &mut |_| {});
    assert!(parsed.unreadable.is_empty(), "{:?}", parsed.unreadable);
    parsed
        .streams
        .iter()
        .flat_map(|stream| stream.events.iter().map(|event| event.kind()))
        .collect()
}

/// What `scripts/new-rule` writes and the registry expects of rule `id`, as problems: its file
/// declares `pub const ID` and the struct named after the id, with [`declare_rule!`], the `DOC`
/// that reads the struct's doc comment and the `check` function the macro makes its [`Rule`] of
/// (a signature rule), or with `health_rule!`, which makes both (a health rule); `lib.rs`
/// declares the module and registers the struct.
fn convention_problems(id: &str, family: RuleFamily, rule_file: &str, lib: &str) -> Vec<String> {
    let module = id.replace('-', "_");
    let camel: String = id
        .split('-')
        .map(|word| word[..1].to_uppercase() + &word[1..])
        .collect();
    let registry = &lib[lib.find("pub fn registry()").unwrap_or(lib.len())..];
    let registry = &registry[..registry.find("\n}\n").unwrap_or(registry.len())];
    let declaration = match family {
        RuleFamily::Signature => vec![
            "declare_rule! {\n    ///".to_string(),
            format!("    pub struct {camel};\n}}\n"),
            "static DOC: RuleDoc = RuleDoc {\n".to_string(),
            format!("markdown: {camel}::MARKDOWN,"),
            "\nfn check(context: &Context<'_>, out: &mut Output) {\n".to_string(),
        ],
        RuleFamily::Health => vec![
            "health_rule! {\n    ///".to_string(),
            format!("    pub struct {camel};\n    ticket: "),
        ],
    };
    [(rule_file, format!("pub const ID: &str = \"{id}\";"))]
        .into_iter()
        .chain(declaration.into_iter().map(|line| (rule_file, line)))
        .chain([
            (lib, format!("\npub mod {module};\n")),
            (registry, format!("        &{module}::{camel},\n")),
        ])
        .filter(|(text, line)| !text.contains(line.as_str()))
        .map(|(_, line)| format!("{id}: no `{}`", line.trim()))
        .collect()
}

fn source(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every registered rule follows the convention with nothing left to do, and every rule file is
/// registered.
#[test]
fn every_rule_follows_the_convention_and_is_registered() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = source(&src.join("lib.rs"));
    let mut problems = Vec::new();
    let mut registered = Vec::new();
    for rule in registry() {
        let id = rule.doc().id;
        let file = src.join(format!("{}.rs", id.replace('-', "_")));
        registered.push(file.clone());
        let text = source(&file);
        problems.extend(convention_problems(id, rule.doc().family, &text, &lib));
        if text.contains("TODO") {
            problems.push(format!("{}: a TODO is left", file.display()));
        }
    }
    for entry in std::fs::read_dir(&src).expect("rules/src") {
        let path = entry.expect("an entry of rules/src").path();
        if path.extension().is_some_and(|e| e == "rs")
            && source(&path)
                .lines()
                .any(|line| line == "declare_rule! {" || line == "health_rule! {")
            && !registered.contains(&path)
        {
            problems.push(format!("{}: not in registry()", path.display()));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// `scripts/new-rule`, run in a temporary copy of what it edits, writes a rule file rustfmt
/// parses and the convention accepts, with every doc section, registers it, and runs the new
/// generator (on `samples/gen/ozlog`) into a bug and a look-alike bundle with EXPECTED.json,
/// SOURCE.md and REPLAY. Nothing is built: that a scaffolded rule compiles and its test fails
/// was checked by hand (README, "Adding a rule").
#[test]
fn new_rule_scaffolds_what_the_registry_expects() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let root = tempfile::tempdir().expect("a temporary folder");
    let root = root.path();
    std::fs::create_dir_all(root.join("rules/src")).unwrap();
    std::fs::copy(repo.join("rules/src/lib.rs"), root.join("rules/src/lib.rs")).unwrap();
    let ozlog = repo.join("samples/gen/ozlog");
    std::fs::create_dir_all(root.join("samples/gen/ozlog")).unwrap();
    for entry in std::fs::read_dir(&ozlog).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "py") {
            std::fs::copy(
                &path,
                root.join("samples/gen/ozlog")
                    .join(path.file_name().unwrap()),
            )
            .unwrap();
        }
    }
    let new_rule = |id: &str| {
        std::process::Command::new("python3")
            .arg(repo.join("scripts/new-rule"))
            .arg("--root")
            .arg(root)
            .args([id, "HDDS-1"])
            .output()
            .expect("python3 runs scripts/new-rule")
    };
    let out = new_rule("scaffolded-example");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let rule_path = root.join("rules/src/scaffolded_example.rs");
    let rule_file = source(&rule_path);
    let problems = convention_problems(
        "scaffolded-example",
        RuleFamily::Signature,
        &rule_file,
        &source(&root.join("rules/src/lib.rs")),
    );
    assert!(problems.is_empty(), "{problems:#?}");
    let rustfmt = std::process::Command::new("rustfmt")
        .args(["--edition", "2024", "--check"])
        .arg(&rule_path)
        .output()
        .expect("rustfmt runs");
    assert!(
        rustfmt.status.success(),
        "the scaffolded rule does not parse or is not formatted:\n{}{}",
        String::from_utf8_lossy(&rustfmt.stdout),
        String::from_utf8_lossy(&rustfmt.stderr)
    );
    let headings: Vec<&str> = rule_file
        .lines()
        .filter_map(|line| line.trim().strip_prefix("/// ## "))
        .collect();
    let expected: Vec<&str> = Section::ALL.iter().map(|s| s.heading()).collect();
    assert_eq!(headings, expected);
    assert!(
        rule_file.contains("#[test]"),
        "a test that fails until written"
    );

    let generator = source(&root.join("samples/gen/hdds_1.py"));
    assert!(
        generator.contains("from ozlog.bundle import"),
        "{generator}"
    );
    for (bundle, findings) in [("HDDS-1-bug-first", 1), ("HDDS-1-control-look-alike", 0)] {
        let dir = root.join("samples").join(bundle);
        let expected: serde_json::Value =
            serde_json::from_str(&source(&dir.join("EXPECTED.json"))).expect("EXPECTED.json");
        let expected = expected.as_array().expect("a list of findings");
        assert_eq!(expected.len(), findings, "{bundle}");
        assert!(expected.iter().all(|f| f["rule"] == "scaffolded-example"));
        assert!(source(&dir.join("SOURCE.md")).contains("Rule `scaffolded-example`"));
        assert!(!source(&dir.join("REPLAY")).trim().is_empty());
        assert!(
            dir.join("scm1/ozone-hadoop-scm-scm1.log").is_file(),
            "{bundle}: its log"
        );
    }

    let again = new_rule("scaffolded-example");
    assert!(!again.status.success(), "a second run refuses");
    assert_eq!(source(&rule_path), rule_file, "and changes nothing");
}
