//! tile: a tile-level GPU kernel compiler on MLIR.
