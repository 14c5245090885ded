//! The seed kernels, written with the tile kernel builder.
