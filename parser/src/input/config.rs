//! Configuration files found next to the logs: `log4j.properties` (and the log4j2 audit
//! properties) say which layouts wrote the files, `ozone-site.xml` which limits were in force.

use super::ConfigKind;
use crate::source::{Component, Level, hint_from_path};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// A configuration file and its properties as written (`${…}` not expanded).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfigFile {
    /// The contract's `file` path.
    pub display: String,
    /// The host whose folder holds the file; `None` for a top-level `conf/`.
    pub host: Option<String>,
    pub kind: ConfigKind,
    pub properties: BTreeMap<String, String>,
    /// Why the file could not be read (XML that is not well-formed, with line and column): then
    /// `properties` is empty, and whoever applies the settings says the defaults stand instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub malformed: Option<String>,
}

impl ConfigFile {
    pub(crate) fn parse(
        display: String,
        hint_path: &str,
        kind: ConfigKind,
        text: &str,
    ) -> ConfigFile {
        let (properties, malformed) = match kind {
            ConfigKind::Log4jProperties => (parse_properties(text), None),
            ConfigKind::OzoneSiteXml => match parse_hadoop_xml(text) {
                Ok(properties) => (properties, None),
                Err(reason) => (BTreeMap::new(), Some(reason)),
            },
        };
        let folder = hint_path
            .rsplit_once(['/', '\\'])
            .map_or("", |(folder, _)| folder);
        let host = hint_from_path(&format!("{folder}/")).host;
        ConfigFile {
            display,
            host,
            kind,
            properties,
            malformed,
        }
    }
}

/// What a host's log4j configuration says about the files it wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Log4jConf {
    /// ConversionPattern of the rolling file appender (`RFA`, `DRFA` or `ASYNCRFA`): `*.log*` files.
    pub file_pattern: Option<String>,
    /// ConversionPattern of the console appender: `*.out*` files.
    pub console_pattern: Option<String>,
    /// log4j2 `appender.<name>.layout.pattern` by the component of the appender's `fileName`
    /// (`om-audit-${hostName}.log` → `om-audit`, `dn-container-…` → `dn-container`).
    pub audit_patterns: BTreeMap<Component, String>,
    /// `log4j.logger.X=LEVEL[,appender]` and log4j2 `logger.<id>.name` / `.level`: X → LEVEL.
    pub logger_levels: BTreeMap<String, String>,
}

impl Log4jConf {
    /// Reads the layouts and logger levels out of log4j 1 or log4j2 properties. A pattern holding a
    /// `${…}` that the file itself does not define (`${sys:…}`, `${env:…}`) is left out.
    pub fn from_properties(props: &BTreeMap<String, String>) -> Log4jConf {
        let expand = |value: &str| expand_variables(value, props, 0);
        let appender_class = |name: &str| {
            props
                .get(&format!("log4j.appender.{name}"))
                .map(String::as_str)
        };
        let pattern_of = |name: &str| {
            props
                .get(&format!("log4j.appender.{name}.layout.ConversionPattern"))
                // Ozone's AsyncRollingFileAppender takes the pattern directly.
                .or_else(|| props.get(&format!("log4j.appender.{name}.conversionPattern")))
        };
        // Appenders the root logger names (`log4j.rootLogger=INFO,RFA`), after its level.
        let root_appenders: Vec<String> = props
            .get("log4j.rootLogger")
            .and_then(|v| expand(v))
            .map(|v| v.split(',').skip(1).map(|a| a.trim().to_string()).collect())
            .unwrap_or_default();
        let is_class =
            |name: &str, class: &str| appender_class(name).is_some_and(|c| c.contains(class));

        // Daemons run with OZONE_DAEMON_ROOT_LOGGER=INFO,RFA from the environment, so the file's own
        // rootLogger (INFO,console) rarely names the file appender: fall back to the shipped names.
        let file_appenders = root_appenders
            .iter()
            .filter(|a| is_class(a, "FileAppender"))
            .map(String::as_str)
            .chain(["RFA", "DRFA", "ASYNCRFA"]);
        let file_pattern = file_appenders
            .filter_map(&pattern_of)
            .next()
            .and_then(|p| expand(p));
        let console_appenders = root_appenders
            .iter()
            .filter(|a| is_class(a, "ConsoleAppender"))
            .map(String::as_str)
            .chain(["console", "CONSOLE", "stdout"]);
        let console_pattern = console_appenders
            .filter_map(&pattern_of)
            .next()
            .and_then(|p| expand(p));

        let mut audit_patterns = BTreeMap::new();
        let mut logger_levels = BTreeMap::new();
        for (key, value) in props {
            if let Some(appender) = key
                .strip_prefix("appender.")
                .and_then(|k| k.strip_suffix(".layout.pattern"))
            {
                let file_name = props
                    .get(&format!("appender.{appender}.fileName"))
                    .or_else(|| props.get(&format!("appender.{appender}.filePattern")));
                let component =
                    file_name.and_then(|f| hint_from_path(&strip_variables(f)).component);
                if let (Some(component), Some(pattern)) = (component, expand(value)) {
                    audit_patterns.entry(component).or_insert(pattern);
                }
            }
            let logger = key
                .strip_prefix("log4j.logger.")
                .or_else(|| key.strip_prefix("log4j.category."));
            if let Some(logger) = logger
                && let Some(level) = expand(value).as_deref().and_then(level_of)
            {
                logger_levels.insert(logger.to_string(), level);
            }
            if let Some(id) = key
                .strip_prefix("logger.")
                .and_then(|k| k.strip_suffix(".name"))
                && let Some(level) = props
                    .get(&format!("logger.{id}.level"))
                    .and_then(|l| expand(l))
                && let Some(level) = level_of(&level)
            {
                logger_levels.insert(value.trim().to_string(), level);
            }
        }
        Log4jConf {
            file_pattern,
            console_pattern,
            audit_patterns,
            logger_levels,
        }
    }

    /// Fills what this (nearer) configuration leaves open from an outer one.
    pub(crate) fn fill_from(&mut self, outer: &Log4jConf) {
        if self.file_pattern.is_none() {
            self.file_pattern.clone_from(&outer.file_pattern);
        }
        if self.console_pattern.is_none() {
            self.console_pattern.clone_from(&outer.console_pattern);
        }
        for (component, pattern) in &outer.audit_patterns {
            self.audit_patterns
                .entry(*component)
                .or_insert_with(|| pattern.clone());
        }
        for (logger, level) in &outer.logger_levels {
            self.logger_levels
                .entry(logger.clone())
                .or_insert_with(|| level.clone());
        }
    }
}

/// `INFO`, `DEBUG,RFA` → the level, upper-cased; `OFF` and `ALL` are log4j levels too.
fn level_of(value: &str) -> Option<String> {
    let level = value.split(',').next()?.trim().to_ascii_uppercase();
    (Level::parse(&level).is_some() || level == "OFF" || level == "ALL").then_some(level)
}

/// Expands `${name}` from the same file (log4j2 also as `property.name`); `None` when a variable
/// is not defined there.
fn expand_variables(value: &str, props: &BTreeMap<String, String>, depth: usize) -> Option<String> {
    const MAX_DEPTH: usize = 8;
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(rest.get(..start)?);
        let after = rest.get(start + 2..)?;
        let end = after.find('}')?;
        let name = after.get(..end)?;
        let defined = props
            .get(name)
            .or_else(|| props.get(&format!("property.{name}")))?;
        if depth >= MAX_DEPTH {
            return None;
        }
        out.push_str(&expand_variables(defined, props, depth + 1)?);
        rest = after.get(end + 1..)?;
    }
    out.push_str(rest);
    Some(out)
}

/// `${sys:hadoop.log.dir}/om-audit-${hostName}.log` → `/om-audit-host.log`, enough to name the component.
fn strip_variables(value: &str) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(rest.get(..start).unwrap_or_default());
        match rest.get(start..).and_then(|r| r.find('}')) {
            Some(end) => {
                out.push_str("host");
                rest = rest.get(start + end + 1..).unwrap_or_default();
            }
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Java `Properties.load` text format: `key=value`, `key: value` or `key value`; `#` and `!`
/// comments; a line ending in an odd number of `\` continues on the next; `\t`, `\n`, `\uXXXX` escapes.
pub fn parse_properties(text: &str) -> BTreeMap<String, String> {
    let mut props = BTreeMap::new();
    let mut logical = String::new();
    for line in text.lines() {
        let line = line.trim_start_matches([' ', '\t', '\x0c']);
        if logical.is_empty() && (line.is_empty() || line.starts_with(['#', '!'])) {
            continue;
        }
        let trailing_backslashes = line.bytes().rev().take_while(|&b| b == b'\\').count();
        if trailing_backslashes % 2 == 1 {
            logical.push_str(line.get(..line.len() - 1).unwrap_or_default());
            continue;
        }
        logical.push_str(line);
        let (key, value) = split_property(&logical);
        props.insert(unescape(key.trim_end()), unescape(value));
        logical.clear();
    }
    if !logical.is_empty() {
        let (key, value) = split_property(&logical);
        props.insert(unescape(key.trim_end()), unescape(value));
    }
    props
}

/// Splits at the first unescaped `=`, `:` or whitespace; the value starts after the separator
/// and any whitespace around it.
fn split_property(line: &str) -> (&str, &str) {
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '=' | ':' | ' ' | '\t' | '\x0c' => {
                let key = line.get(..i).unwrap_or_default();
                let mut value = line
                    .get(i..)
                    .unwrap_or_default()
                    .trim_start_matches([' ', '\t', '\x0c']);
                if c.is_whitespace() || c == '\x0c' {
                    if let Some(v) = value.strip_prefix(['=', ':']) {
                        value = v.trim_start_matches([' ', '\t', '\x0c']);
                    }
                } else {
                    value = value
                        .get(1..)
                        .unwrap_or_default()
                        .trim_start_matches([' ', '\t', '\x0c']);
                }
                return (key, value);
            }
            _ => {}
        }
    }
    (line, "")
}

fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('f') => out.push('\x0c'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(decoded) => out.push(decoded),
                    None => out.push_str(&hex),
                }
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// Hadoop configuration XML (`<configuration><property><name>…</name><value>…</value>…`), as
/// Hadoop's `Configuration` reads it: a `<property>` is kept when it has a `<name>` and a `<value>`
/// (`<value/>` is empty), names and values trimmed, the last `<value>` winning; `name` and `value`
/// may also be attributes of `<property>`. `<final>` and `<description>` say nothing about the
/// value and are not read, nor is `xi:include` (the included file is a configuration file of its
/// own when the bundle holds it). Entities, character references and CDATA are decoded by the XML
/// parser. `Err` is the parser's reason, with line and column, when the text is not well-formed.
pub fn parse_hadoop_xml(text: &str) -> Result<BTreeMap<String, String>, String> {
    let options = roxmltree::ParsingOptions {
        // Hadoop's parser accepts a DTD (and its entities); roxmltree still bounds entity expansion.
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let document =
        roxmltree::Document::parse_with_options(text, options).map_err(|e| e.to_string())?;
    let mut props = BTreeMap::new();
    for property in document
        .descendants()
        .filter(|n| n.has_tag_name("property"))
    {
        let child_text = |tag: &str| {
            property
                .children()
                .rfind(|c| c.has_tag_name(tag))
                .map(element_text)
        };
        let name = child_text("name").or_else(|| property.attribute("name").map(str::to_string));
        let value = child_text("value").or_else(|| property.attribute("value").map(str::to_string));
        if let (Some(name), Some(value)) = (name, value) {
            props.insert(name.trim().to_string(), value.trim().to_string());
        }
    }
    Ok(props)
}

/// The text of an element, its text and CDATA pieces joined (a comment inside splits them).
fn element_text(element: roxmltree::Node) -> String {
    element
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

/// The folder a configuration file applies to, as a `/`-terminated prefix of relative paths:
/// the folder holding it, less a trailing `conf/`, `etc/hadoop/` or `etc/ozone/` (the folder
/// holding `conf/` is the host's). `""` applies to everything.
pub(crate) fn scope_of(relative_path: &str) -> String {
    let mut folders: Vec<&str> = relative_path.split('/').collect();
    folders.pop();
    if folders.last() == Some(&"conf") {
        folders.pop();
    }
    if folders.len() >= 2
        && folders[folders.len() - 2] == "etc"
        && matches!(folders.last(), Some(&"hadoop") | Some(&"ozone"))
    {
        folders.truncate(folders.len() - 2);
    } else if folders.last() == Some(&"etc") {
        folders.pop();
    }
    folders.iter().map(|f| format!("{f}/")).collect()
}

/// log4j configurations by the folder they apply to; a file gets the nearest one, with what it
/// leaves open filled from the folders above it and from `base`.
pub(crate) struct ConfScopes {
    base: Option<Arc<Log4jConf>>,
    own: BTreeMap<String, Log4jConf>,
    effective: HashMap<String, Option<Arc<Log4jConf>>>,
}

impl ConfScopes {
    pub(crate) fn new(base: Option<Arc<Log4jConf>>) -> ConfScopes {
        ConfScopes {
            base,
            own: BTreeMap::new(),
            effective: HashMap::new(),
        }
    }

    /// Adds a configuration for `scope` (from [`scope_of`]); several files in one folder
    /// (log4j.properties and the audit log4j2 files) are merged.
    pub(crate) fn add(&mut self, scope: String, conf: Log4jConf) {
        match self.own.get_mut(&scope) {
            Some(existing) => existing.fill_from(&conf),
            None => {
                self.own.insert(scope, conf);
            }
        }
        self.effective.clear();
    }

    pub(crate) fn for_path(&mut self, relative_path: &str) -> Option<Arc<Log4jConf>> {
        // Scopes that contain the path, nearest (longest) first.
        let mut matching: Vec<&String> = self
            .own
            .keys()
            .filter(|s| relative_path.starts_with(s.as_str()))
            .collect();
        matching.sort_by_key(|s| std::cmp::Reverse(s.len()));
        let Some(nearest) = matching.first() else {
            return self.base.clone();
        };
        if let Some(cached) = self.effective.get(*nearest) {
            return cached.clone();
        }
        let mut merged = self.own.get(*nearest).cloned().unwrap_or_default();
        for outer in matching.iter().skip(1) {
            if let Some(conf) = self.own.get(*outer) {
                merged.fill_from(conf);
            }
        }
        if let Some(base) = &self.base {
            merged.fill_from(base);
        }
        let merged = Some(Arc::new(merged));
        self.effective.insert((*nearest).clone(), merged.clone());
        merged
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Excerpts of hadoop-ozone/dist/src/shell/conf/log4j.properties (HEAD 2026-08).
    const OZONE_LOG4J: &str = r"
# Define some default values that can be overridden by system properties
hadoop.root.logger=INFO,console
hadoop.log.dir=.
hadoop.log.file=hadoop.log
log4j.rootLogger=${hadoop.root.logger}
log4j.appender.RFA=org.apache.log4j.rolling.RollingFileAppender
log4j.appender.RFA.rollingPolicy.FileNamePattern=${hadoop.log.dir}/${hadoop.log.file}-%i.gz
log4j.appender.RFA.layout=org.apache.log4j.PatternLayout
log4j.appender.RFA.layout.ConversionPattern=%d{ISO8601} [%t] %p %c: %m%n
log4j.appender.ASYNCRFA=org.apache.hadoop.ozone.utils.AsyncRollingFileAppender
log4j.appender.ASYNCRFA.conversionPattern=%d{ISO8601} [%t] %p %c: %m%n
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} [%t] %p %c{2}: %m%n
hadoop.security.logger=INFO,NullAppender
log4j.category.SecurityLogger=${hadoop.security.logger}
log4j.logger.http.requests=INFO,HttpAccess
log4j.logger.org.apache.ratis.conf.ConfUtils=WARN
#log4j.logger.com.amazonaws=ERROR
";

    #[test]
    fn ozone_shipped_log4j() {
        let conf = Log4jConf::from_properties(&parse_properties(OZONE_LOG4J));
        assert_eq!(
            conf.file_pattern.as_deref(),
            Some("%d{ISO8601} [%t] %p %c: %m%n")
        );
        assert_eq!(
            conf.console_pattern.as_deref(),
            Some("%d{ISO8601} [%t] %p %c{2}: %m%n")
        );
        assert_eq!(
            conf.logger_levels
                .get("org.apache.ratis.conf.ConfUtils")
                .map(String::as_str),
            Some("WARN")
        );
        assert_eq!(
            conf.logger_levels.get("SecurityLogger").map(String::as_str),
            Some("INFO")
        );
        assert_eq!(
            conf.logger_levels.get("http.requests").map(String::as_str),
            Some("INFO")
        );
        assert!(!conf.logger_levels.contains_key("com.amazonaws"));
    }

    #[test]
    fn root_logger_picks_the_file_appender_and_unknown_variables_drop_the_pattern() {
        let text = "log4j.rootLogger=INFO, DRFA\n\
                    log4j.appender.DRFA=org.apache.log4j.DailyRollingFileAppender\n\
                    log4j.appender.DRFA.layout.ConversionPattern=%d{ISO8601} %p %c: %m%n\n\
                    log4j.appender.RFA=org.apache.log4j.RollingFileAppender\n\
                    log4j.appender.RFA.layout.ConversionPattern=%d [%t] %p %c: %m%n\n\
                    log4j.appender.console.layout.ConversionPattern=${console.pattern}\n";
        let conf = Log4jConf::from_properties(&parse_properties(text));
        assert_eq!(
            conf.file_pattern.as_deref(),
            Some("%d{ISO8601} %p %c: %m%n")
        );
        assert_eq!(conf.console_pattern, None);
    }

    #[test]
    fn log4j2_audit_patterns_by_file_name() {
        // hadoop-ozone/dist/src/shell/conf/om-audit-log4j2.properties (2.0.0+ adds the system audit appender)
        // and dn-container-log4j2.properties.
        let text = "appender.rolling.type=RollingFile\n\
            appender.rolling.fileName =${sys:hadoop.log.dir}/om-audit-${hostName}.log\n\
            appender.rolling.layout.pattern=%d{DEFAULT} | %-5level | %c{1} | %msg | %throwable{3} %n\n\
            appender.sysrolling.fileName =${sys:hadoop.log.dir}/om-sys-audit-${hostName}.log\n\
            appender.sysrolling.layout.pattern=%d{DEFAULT} | %-5level | %c{1} | %msg | %throwable{3} %n\n\
            appender.rollingContainer.fileName =${sys:hadoop.log.dir}/dn-container-${hostName}.log\n\
            appender.rollingContainer.layout.pattern=%d{DEFAULT} | %-5level | %msg | %throwable{3} %n\n\
            appender.console.layout.pattern=%d %msg%n\n\
            logger.audit.name=OMAudit\n\
            logger.audit.level=INFO\n";
        let conf = Log4jConf::from_properties(&parse_properties(text));
        let audit = "%d{DEFAULT} | %-5level | %c{1} | %msg | %throwable{3} %n";
        assert_eq!(
            conf.audit_patterns
                .get(&Component::OmAudit)
                .map(String::as_str),
            Some(audit)
        );
        assert_eq!(
            conf.audit_patterns
                .get(&Component::OmSysAudit)
                .map(String::as_str),
            Some(audit)
        );
        assert_eq!(
            conf.audit_patterns
                .get(&Component::DnContainer)
                .map(String::as_str),
            Some("%d{DEFAULT} | %-5level | %msg | %throwable{3} %n")
        );
        assert_eq!(conf.audit_patterns.len(), 3);
        assert_eq!(
            conf.logger_levels.get("OMAudit").map(String::as_str),
            Some("INFO")
        );
    }

    #[test]
    fn properties_syntax() {
        let props = parse_properties(
            "a.b = one \\\n    two\n! comment\nc:d\ne f\n  g=\\u0041\\tB\nescaped\\=key=v\nempty\nodd=x\\\\\n",
        );
        assert_eq!(props.get("a.b").map(String::as_str), Some("one two"));
        assert_eq!(props.get("c").map(String::as_str), Some("d"));
        assert_eq!(props.get("e").map(String::as_str), Some("f"));
        assert_eq!(props.get("g").map(String::as_str), Some("A\tB"));
        assert_eq!(props.get("escaped=key").map(String::as_str), Some("v"));
        assert_eq!(props.get("empty").map(String::as_str), Some(""));
        assert_eq!(props.get("odd").map(String::as_str), Some("x\\"));
        assert_eq!(props.len(), 7);
    }

    #[test]
    fn hadoop_xml() {
        let xml = r#"<?xml version="1.0"?>
<?xml-stylesheet type="text/xsl" href="configuration.xsl"?>
<configuration xmlns:xi="http://www.w3.org/2001/XInclude">
  <xi:include href="extra-site.xml"/>
  <!-- <property><name>commented.out</name><value>1</value></property> -->
  <property>
    <name>ozone.scm.names</name>
    <value>scm1.example.com,scm2.example.com</value>
    <description>a &lt;b&gt; <![CDATA[</value>]]></description>
    <final>true</final>
  </property>
  <property><name>ozone.audit.log.debug.cmd.list.omaudit</name><value/></property>
  <property><name>no.value</name></property>
  <property><name>a&amp;b</name><value>&#65;&#x42;&quot;</value></property>
  <property><name>ozone.om.address</name><value><![CDATA[om1:<9862>]]></value></property>
  <property><name>split</name><value>a<!-- why -->b</value></property>
  <property name="as.attributes" value="1"/>
  <property>
    <name>
      ozone.om.lease.hard.limit
    </name>
    <value>
      7d
    </value>
  </property>
</configuration>"#;
        let props = parse_hadoop_xml(xml).expect("well-formed");
        let get = |key: &str| props.get(key).map(String::as_str);
        assert_eq!(
            get("ozone.scm.names"),
            Some("scm1.example.com,scm2.example.com")
        );
        assert_eq!(get("ozone.audit.log.debug.cmd.list.omaudit"), Some(""));
        assert_eq!(get("a&b"), Some("AB\""));
        assert_eq!(get("ozone.om.address"), Some("om1:<9862>"));
        assert_eq!(get("split"), Some("ab"));
        assert_eq!(get("as.attributes"), Some("1"));
        // Hadoop trims names and values.
        assert_eq!(get("ozone.om.lease.hard.limit"), Some("7d"));
        // As in Hadoop, a property without a value sets nothing.
        assert!(!props.contains_key("no.value"));
        assert!(!props.contains_key("commented.out"));
        assert_eq!(props.len(), 7);
    }

    #[test]
    fn malformed_hadoop_xml_is_a_reason_with_its_position_and_no_settings() {
        let xml = "<configuration>\n  <property><name>ozone.om.lease.hard.limit</name><value>2h</value>\n</configuration>\n";
        let reason = parse_hadoop_xml(xml).expect_err("unclosed <property>");
        assert!(reason.ends_with("at 3:1"), "{reason}");
        let config = ConfigFile::parse(
            "om1/conf/ozone-site.xml".into(),
            "om1/conf/ozone-site.xml",
            ConfigKind::OzoneSiteXml,
            xml,
        );
        assert_eq!(config.malformed, Some(reason));
        assert!(config.properties.is_empty());
        assert_eq!(config.host.as_deref(), Some("om1"));
    }

    #[test]
    fn scopes() {
        assert_eq!(scope_of("conf/log4j.properties"), "");
        assert_eq!(scope_of("log4j.properties"), "");
        assert_eq!(scope_of("scm1/conf/log4j.properties"), "scm1/");
        assert_eq!(scope_of("b/om1/etc/hadoop/log4j.properties"), "b/om1/");
        assert_eq!(scope_of("om1/log4j.properties"), "om1/");

        let conf = |file: &str| Log4jConf {
            file_pattern: Some(file.into()),
            ..Log4jConf::default()
        };
        let console = Log4jConf {
            console_pattern: Some("top console".into()),
            ..Log4jConf::default()
        };
        let mut scopes = ConfScopes::new(None);
        scopes.add(String::new(), conf("top"));
        scopes.add(String::new(), console);
        scopes.add("scm1/".into(), conf("scm1"));
        let scm1 = scopes.for_path("scm1/logs/x.log").expect("scm1 conf");
        assert_eq!(scm1.file_pattern.as_deref(), Some("scm1"));
        assert_eq!(scm1.console_pattern.as_deref(), Some("top console"));
        let other = scopes.for_path("scm10/x.log").expect("top conf");
        assert_eq!(other.file_pattern.as_deref(), Some("top"));
        assert!(Arc::ptr_eq(
            &scm1,
            &scopes.for_path("scm1/y.log").expect("cached")
        ));
    }
}
