//! The engine's parts run on the registered families: what a family-agnostic test cannot
//! show, that every family's generator, rules and vectors work with them.

mod bugs;
mod campaign;
mod compare;
mod family;
mod junit;
mod replay;
mod settle;
mod summary;
mod without_vector;
