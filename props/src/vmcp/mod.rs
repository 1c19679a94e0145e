//! verifiable-mcp's share of the checks: what a client of a response reads (apart from the
//! core's verifier), a test server that signs as the specification says, and the `vmcp` fuzz
//! target's property.

pub mod client_view;
pub mod fuzz;
pub mod test_server;
