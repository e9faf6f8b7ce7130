//! Small matchers the catalogue modules share.

/// Reads an SLF4J format string (`{}` placeholders) against a message and returns the text of
/// each placeholder, or `None` when the message is not that template. Trailing spaces of both
/// are ignored (copies of logs lose them). A placeholder runs to the first occurrence of the
/// literal after it; the last one runs to the literal that ends the template.
pub fn fill<'t>(template: &str, text: &'t str) -> Option<Vec<&'t str>> {
    let template = template.trim_end();
    let text = text.trim_end();
    let mut parts = template.split("{}");
    let head = parts.next()?;
    let mut rest = text.strip_prefix(head)?;
    let literals: Vec<&str> = parts.collect();
    let mut values = Vec::with_capacity(literals.len());
    for (i, literal) in literals.iter().enumerate() {
        if i + 1 == literals.len() {
            values.push(rest.strip_suffix(literal)?);
            return Some(values);
        }
        if literal.is_empty() {
            // Two placeholders with nothing between them cannot be told apart.
            return None;
        }
        let at = rest.find(literal)?;
        values.push(&rest[..at]);
        rest = &rest[at + literal.len()..];
    }
    rest.is_empty().then_some(values)
}

/// The class name at the end of a logger: `org.a.B`, `a.B` (`%c{2}`) and `B` all give `B`.
pub fn logger_class(logger: &str) -> &str {
    logger.rsplit('.').next().unwrap_or(logger)
}

/// The unsigned number at the start of `s` (`18341, …` → 18341).
pub fn u64_prefix(s: &str) -> Option<u64> {
    let len = s.bytes().take_while(u8::is_ascii_digit).count();
    s.get(..len)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_reads_placeholders_or_refuses() {
        assert_eq!(
            fill(
                "Container {} is open but {}. Triggering close.",
                "Container #5 is open but full. Triggering close.  "
            ),
            Some(vec!["#5", "full"])
        );
        assert_eq!(fill("a {} b", "a x c"), None);
        assert_eq!(fill("{}{}", "xy"), None);
        assert_eq!(fill("no placeholders", "no placeholders"), Some(vec![]));
        assert_eq!(fill("no placeholders", "other"), None);
    }

    #[test]
    fn class_and_numbers() {
        assert_eq!(
            logger_class("org.apache.ratis.server.RaftServer$Division"),
            "RaftServer$Division"
        );
        assert_eq!(logger_class("node.SCMNodeManager"), "SCMNodeManager");
        assert_eq!(logger_class("SCMAudit"), "SCMAudit");
        assert_eq!(u64_prefix("18341, rest"), Some(18341));
        assert_eq!(u64_prefix("x"), None);
    }
}
