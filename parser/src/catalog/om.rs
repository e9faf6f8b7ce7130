//! (Being written: the om statements of ../shared/ozone-logs.)

use super::{Input, KindInfo, Typed};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum OmEvent {}

impl OmEvent {
    pub fn kind(&self) -> &'static str {
        match *self {}
    }
}

pub const KINDS: &[KindInfo] = &[];

pub fn parse(_input: &Input<'_>) -> Option<Typed> {
    None
}
