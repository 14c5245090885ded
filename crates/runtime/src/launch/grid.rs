//! Launch grids: how many blocks along x, y and z, and their check
//! against the device.

use crate::error::{Result, RuntimeError};
use std::fmt;

/// A launch grid: the number of blocks along x, y and z.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid([u32; 3]);

impl Grid {
    /// A grid of `x * y * z` blocks. Zero sizes are accepted here and
    /// refused at launch.
    pub fn new(x: u32, y: u32, z: u32) -> Grid {
        Grid([x, y, z])
    }

    /// The sizes along x, y and z.
    pub fn dims(self) -> [u32; 3] {
        self.0
    }

    /// Checks the grid against the device's largest grid; zero sizes are
    /// refused too.
    pub fn check(self, kernel: &str, max: [u32; 3]) -> Result<()> {
        for ((axis, &n), &limit) in ["x", "y", "z"].iter().zip(&self.0).zip(&max) {
            let message = if n == 0 {
                format!(
                    "grid {axis} = 0 (grid {}); every grid dimension must be at least 1",
                    self
                )
            } else if n > limit {
                format!("grid {axis} = {n} exceeds the device limit {limit} (grid {self})")
            } else {
                continue;
            };
            return Err(RuntimeError::BadLaunch {
                kernel: kernel.to_string(),
                message,
            });
        }
        Ok(())
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.0;
        write!(f, "({x}, {y}, {z})")
    }
}

impl From<u32> for Grid {
    fn from(x: u32) -> Self {
        Grid([x, 1, 1])
    }
}

impl From<(u32, u32)> for Grid {
    fn from((x, y): (u32, u32)) -> Self {
        Grid([x, y, 1])
    }
}

impl From<(u32, u32, u32)> for Grid {
    fn from((x, y, z): (u32, u32, u32)) -> Self {
        Grid([x, y, z])
    }
}

impl From<[u32; 3]> for Grid {
    fn from(dims: [u32; 3]) -> Self {
        Grid(dims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An H100's largest grid.
    const MAX_GRID: [u32; 3] = [2_147_483_647, 65_535, 65_535];

    #[test]
    fn grid_conversions() {
        assert_eq!(Grid::from(7).dims(), [7, 1, 1]);
        assert_eq!(Grid::from((7, 3)).dims(), [7, 3, 1]);
        assert_eq!(Grid::from((7, 3, 2)).dims(), [7, 3, 2]);
        assert_eq!(Grid::from([1, 2, 3]), Grid::new(1, 2, 3));
        assert_eq!(Grid::new(4, 5, 6).to_string(), "(4, 5, 6)");
    }

    #[test]
    fn zero_dims_are_refused() {
        for grid in [Grid::from(0), Grid::from((4, 0)), Grid::from((4, 4, 0))] {
            let err = grid.check("k", MAX_GRID).unwrap_err();
            assert!(
                matches!(&err, RuntimeError::BadLaunch { kernel, .. } if kernel == "k"),
                "{err:?}"
            );
        }
        assert_eq!(
            Grid::from((4, 0))
                .check("k", MAX_GRID)
                .unwrap_err()
                .to_string(),
            "kernel `k`: cannot launch: grid y = 0 (grid (4, 0, 1)); every grid dimension must \
             be at least 1"
        );
    }

    #[test]
    fn grids_past_the_device_limit_are_refused() {
        Grid::from((2_147_483_647, 65_535, 65_535))
            .check("k", MAX_GRID)
            .unwrap();
        assert_eq!(
            Grid::from((1, 70_000))
                .check("k", MAX_GRID)
                .unwrap_err()
                .to_string(),
            "kernel `k`: cannot launch: grid y = 70000 exceeds the device limit 65535 (grid (1, \
             70000, 1))"
        );
        assert!(
            Grid::from((1, 1, 65_536))
                .check("k", MAX_GRID)
                .unwrap_err()
                .to_string()
                .contains("grid z = 65536 exceeds the device limit 65535")
        );
    }
}
