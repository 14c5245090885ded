//! Layouts: how a tensor's elements are spread over the threads of a
//! program ([`Layout`]), where each thread's elements sit in its registers
//! ([`Distribution`]), and the choice of layouts for loads and stores.

pub mod access;
pub mod axis_info;
pub mod distribution;
pub mod layout;
pub mod mma;
pub mod shared;

pub use access::Access;
pub use axis_info::AxisInfo;
pub use distribution::Distribution;
pub use layout::{BaseTerms, Blocked, Layout, LayoutError, Root, WARP_SIZE};
pub use mma::Mma;
pub use shared::SharedTile;
