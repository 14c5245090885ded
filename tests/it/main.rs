//! Integration tests of the tile compiler, in one test binary.
