//! `tile-opt` as a library: [`driver::run`] is the binary's whole program,
//! callable in-process (the integration tests round-trip the examples
//! through it). Not a dependency of `tile`: a user of the library does not
//! build this command line.

pub mod driver;
