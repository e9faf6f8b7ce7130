//! Bug signatures.
