//! Readings of JSON apart from the core, each named by what it reads: the problems RFC 8259 and
//! I-JSON name, numbers exactly as written, serde_json values at any depth or without its
//! marker's meaning, and values for the harness's own judgments.

pub mod any_depth;
pub mod exact_numbers;
pub mod for_judgment;
pub mod problems;
pub(crate) mod unmarked;
