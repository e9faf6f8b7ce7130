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
            oztrace_analyzer::kinds::unknown(rule.consumes()),
            Vec::<&str>::new(),
            "{}",
            rule.doc().id
        );
        assert!(!rule.consumes().is_empty(), "{}", rule.doc().id);
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
