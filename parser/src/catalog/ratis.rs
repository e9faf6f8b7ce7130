//! (Being written: the ratis statements of ../shared/ozone-logs.)

use super::{Input, KindInfo, Typed};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum RatisEvent {}

impl RatisEvent {
    pub fn kind(&self) -> &'static str {
        match *self {}
    }
}

pub const KINDS: &[KindInfo] = &[];

pub fn parse(_input: &Input<'_>) -> Option<Typed> {
    None
}
