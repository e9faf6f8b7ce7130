//! Strings known by number: each stored once, looked up by its text. The readers number the
//! datanodes and Ratis peers a stream names, and the endpoint machine its datanodes and SCMs,
//! so that their tables and state hold 4-byte numbers instead of strings.

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

#[derive(Debug, Default)]
pub(crate) struct Names {
    numbers: HashMap<Arc<str>, u32>,
    names: Vec<Arc<str>>,
}

impl Names {
    /// The number of `name`, given one if it is new.
    pub(crate) fn number(&mut self, name: &str) -> u32 {
        if let Some(&number) = self.numbers.get(name) {
            return number;
        }
        let number = self.names.len() as u32;
        let name: Arc<str> = Arc::from(name);
        self.names.push(Arc::clone(&name));
        self.numbers.insert(name, number);
        number
    }

    /// The number of `name`, if it has one.
    pub(crate) fn find(&self, name: &str) -> Option<u32> {
        self.numbers.get(name).copied()
    }

    pub(crate) fn name(&self, number: u32) -> &Arc<str> {
        &self.names[number as usize]
    }

    /// Every name, by number, without the growth slack (a table held until the merge).
    pub(crate) fn into_names(mut self) -> Vec<Arc<str>> {
        self.names.shrink_to_fit();
        self.names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_numbered_once_each() {
        let mut names = Names::default();
        let scm1 = names.number("scm1");
        let dn = names.number("dn1");
        assert_eq!(dn, scm1 + 1);
        assert_eq!(names.number("scm1"), scm1);
        assert_eq!(names.find("dn1"), Some(dn));
        assert_eq!(names.find("scm2"), None);
        assert_eq!(&**names.name(scm1), "scm1");
        let names = names.into_names();
        assert_eq!(
            names.iter().map(|n| &**n).collect::<Vec<_>>(),
            ["scm1", "dn1"]
        );
    }
}
