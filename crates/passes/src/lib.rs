//! Passes over tile IR.
