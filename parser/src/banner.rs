//! The banner every Ozone service logs when it starts (`HddsServerUtil.createStartupShutdownMessage`
//! in 2.0–HEAD, `org.apache.hadoop.hdds.StringUtils` in 1.0–1.4), at INFO through the starter's
//! logger: a `STARTUP_MSG: ` line, then one continuation line per item, among them
//! `STARTUP_MSG:   version = <release>`. The release is what fleet analysis groups bundles by.

/// Releases longer than this are not a version string (a cut or garbled line).
const MAX_RELEASE: usize = 64;

/// The release a startup banner names (`2.0.0`, `2.3.0-SNAPSHOT`), when the record is one:
/// its message starts with `STARTUP_MSG:` and a continuation line reads `version = …`.
pub fn release<'a>(message: &str, continuation: &'a str) -> Option<&'a str> {
    if !message.trim_start().starts_with("STARTUP_MSG:") {
        return None;
    }
    continuation.lines().find_map(|line| {
        let item = line.trim_start().strip_prefix("STARTUP_MSG:")?.trim_start();
        let value = item
            .strip_prefix("version")?
            .trim_start()
            .strip_prefix('=')?;
        let release = value.split_whitespace().next()?;
        (release.len() <= MAX_RELEASE).then_some(release)
    })
}

#[cfg(test)]
mod tests {
    use super::release;

    #[test]
    fn the_banner_names_its_release() {
        // As HddsServerUtil (2.0.0) writes it: two spaces before each item name.
        let banner = "/************************************************************\n\
                      STARTUP_MSG: Starting StorageContainerManager\n\
                      STARTUP_MSG:   host = scm1.example.com/10.0.1.1\n\
                      STARTUP_MSG:   args = []\n\
                      STARTUP_MSG:   version = 2.0.0\n\
                      STARTUP_MSG:   classpath = /opt/ozone/etc/hadoop:…";
        assert_eq!(release("STARTUP_MSG: ", banner), Some("2.0.0"));
        // Later releases right-align the item names.
        let aligned = "STARTUP_MSG:        host = scm3/10.20.0.13\n\
                       STARTUP_MSG:     version = 2.3.0-SNAPSHOT";
        assert_eq!(release("STARTUP_MSG: ", aligned), Some("2.3.0-SNAPSHOT"));
    }

    #[test]
    fn other_records_name_none() {
        // The shutdown banner and a message that only mentions a version.
        assert_eq!(
            release(
                "SHUTDOWN_MSG: ",
                "SHUTDOWN_MSG: Shutting down StorageContainerManager at scm1"
            ),
            None
        );
        assert_eq!(release("Layout version = 7", "version = 2.0.0"), None);
        assert_eq!(release("STARTUP_MSG: ", "STARTUP_MSG:   host = dn1"), None);
        let garbled = format!("STARTUP_MSG:   version = {}", "9".repeat(100));
        assert_eq!(release("STARTUP_MSG: ", &garbled), None);
    }
}
