//! Bytes → records → typed events.
//!
//! Each module has one job and data flows one way:
//! [`input`] finds and opens log streams (files, directories, archives, compressed files);
//! [`source`] says which host and component a stream belongs to;
//! [`pattern`] compiles a log4j ConversionPattern into a matcher and [`layout`] picks one per file;
//! [`record`] splits a line stream into records (header plus continuation lines);
//! [`audit`] reads the `user= | ip= | op= {params} | ret=` body of audit records; [`banner`] the
//! release a service's startup banner names;
//! [`entity`] extracts the entities Ozone prints (containers, datanodes, keys, blocks, …);
//! [`catalog`] types records into [`event::Event`]s.

pub mod audit;
pub mod banner;
pub mod catalog;
pub mod entity;
pub mod event;
pub mod frame;
pub mod input;
pub mod json;
pub mod layout;
pub mod pattern;
pub mod record;
pub mod source;
pub mod time;
pub mod units;
mod word;
