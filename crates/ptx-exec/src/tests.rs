//! Unit tests on small hand-written PTX.
