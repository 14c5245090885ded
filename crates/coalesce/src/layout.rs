//! Distributed layouts: how the elements of a tensor are spread over the
//! threads of one program, and their textual form as the encoding of a
//! tensor type (`tensor<16x64xf32, #tile.blocked<...>>`).
//!
//! ```
//! use tile_coalesce::Blocked;
//!
//! // 128 x 64 elements over 4 warps, columns fastest: one element a
//! // thread at a time, a warp's 32 threads along a row, two warps to cover
//! // the 64 columns and the other two down the rows.
//! let layout = Blocked::default_for(&[128, 64], 4).unwrap();
//! assert_eq!(layout.threads_per_warp, [1, 32]);
//! assert_eq!(layout.warps_per_cta, [2, 2]);
//! assert_eq!(layout.order, [1, 0]);
//! assert_eq!(layout.num_warps(), 4);
//! assert!(layout.validate().is_ok());
//! ```

use crate::mma::Mma;
use std::fmt;

/// Threads in a warp.
pub const WARP_SIZE: u32 = 32;

/// A blocked layout: per axis, how many contiguous elements a thread holds,
/// how many threads of a warp and how many warps of the program lie along
/// it; `order` lists the axes from fastest- to slowest-varying (lane and
/// warp numbers are split over the axes in that order).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Blocked {
    /// Contiguous elements a thread holds along each axis.
    pub size_per_thread: Vec<u32>,
    /// Threads of a warp along each axis (their product is 32).
    pub threads_per_warp: Vec<u32>,
    /// Warps of the program along each axis (their product is num_warps).
    pub warps_per_cta: Vec<u32>,
    /// The axes from fastest- to slowest-varying.
    pub order: Vec<usize>,
}

/// The layout of a tensor: blocked, a tensor-core accumulator, or a slice
/// of another layout (its parent with one axis removed).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// A blocked layout.
    Blocked(Blocked),
    /// A tensor-core accumulator layout.
    Mma(Mma),
    /// The parent layout with axis `dim` removed.
    Slice {
        /// The removed axis of the parent.
        dim: usize,
        /// The layout this one is a slice of.
        parent: Box<Layout>,
    },
}

/// Why a layout could not be built or read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LayoutError(pub String);

impl Blocked {
    /// The number of axes.
    pub fn rank(&self) -> usize {
        self.order.len()
    }

    /// The number of warps (product of `warps_per_cta`).
    pub fn num_warps(&self) -> u32 {
        self.warps_per_cta.iter().product()
    }

    /// Elements one repetition of the pattern covers along `axis`.
    pub fn cover(&self, axis: usize) -> i64 {
        i64::from(self.size_per_thread[axis])
            * i64::from(self.threads_per_warp[axis])
            * i64::from(self.warps_per_cta[axis])
    }

    /// The default layout of a tensor of `shape` for `num_warps` warps: one
    /// element a thread at a time, row-major order, threads and then warps
    /// spread from the fastest axis outwards without exceeding the shape;
    /// threads or warps left over replicate along the slowest axis.
    pub fn default_for(shape: &[i64], num_warps: u32) -> Result<Blocked, LayoutError> {
        let order: Vec<usize> = (0..shape.len()).rev().collect();
        Blocked::spread_over(shape, num_warps, &order, &vec![1; shape.len()])
    }

    /// The layout of a tensor of `shape` for `num_warps` warps in which each
    /// thread holds `size_per_thread` contiguous elements, with axes from
    /// fastest to slowest in `order`: threads and then warps are spread from
    /// the fastest axis outwards without exceeding the shape; threads or
    /// warps left over replicate along the slowest axis.
    pub fn spread_over(
        shape: &[i64],
        num_warps: u32,
        order: &[usize],
        size_per_thread: &[u32],
    ) -> Result<Blocked, LayoutError> {
        check_shape(shape)?;
        if num_warps == 0 || !num_warps.is_power_of_two() {
            return Err(LayoutError(format!(
                "num_warps must be a power of two, got {num_warps}"
            )));
        }
        let rank = shape.len();
        let mut seen = vec![false; rank];
        if order.len() != rank
            || order
                .iter()
                .any(|&a| a >= rank || std::mem::replace(&mut seen[a], true))
        {
            return Err(LayoutError(format!(
                "order {order:?} is not a permutation of the axes of {shape:?}"
            )));
        }
        let held: Vec<i64> = (0..rank)
            .map(|a| i64::from(size_per_thread.get(a).copied().unwrap_or(1)))
            .collect();
        let threads_per_warp = spread(shape, order, &held, WARP_SIZE);
        let covered: Vec<i64> = (0..rank)
            .map(|a| held[a] * i64::from(threads_per_warp[a]))
            .collect();
        let warps_per_cta = spread(shape, order, &covered, num_warps);
        let layout = Blocked {
            size_per_thread: held.iter().map(|&h| h as u32).collect(),
            threads_per_warp,
            warps_per_cta,
            order: order.to_vec(),
        };
        layout.validate()?;
        Ok(layout)
    }

    /// The same layout of a tensor of `shape` with its warps spread anew,
    /// from the first axis of `warp_order` outwards (what is left goes to
    /// its last axis); each thread's elements and each warp's threads stay
    /// as they are. A tile reduced along its fastest axis keeps its warps
    /// off that axis this way, so that each warp reduces whole rows.
    pub fn with_warp_order(
        &self,
        shape: &[i64],
        warp_order: &[usize],
    ) -> Result<Blocked, LayoutError> {
        check_shape(shape)?;
        let rank = self.rank();
        let mut seen = vec![false; rank];
        if shape.len() != rank
            || warp_order.len() != rank
            || warp_order
                .iter()
                .any(|&a| a >= rank || std::mem::replace(&mut seen[a], true))
        {
            return Err(LayoutError(format!(
                "warp order {warp_order:?} is not a permutation of the axes of {shape:?}"
            )));
        }
        let covered: Vec<i64> = (0..rank)
            .map(|a| i64::from(self.size_per_thread[a]) * i64::from(self.threads_per_warp[a]))
            .collect();
        let layout = Blocked {
            warps_per_cta: spread(shape, warp_order, &covered, self.num_warps()),
            ..self.clone()
        };
        layout.validate()?;
        Ok(layout)
    }

    /// Checks the invariants: equal ranks, `order` a permutation, 32
    /// threads a warp, powers of two.
    pub fn validate(&self) -> Result<(), LayoutError> {
        let rank = self.rank();
        let bad = |why: &str| Err(LayoutError(format!("invalid blocked layout {self}: {why}")));
        if rank == 0 {
            return bad("it has no axes");
        }
        if self.size_per_thread.len() != rank
            || self.threads_per_warp.len() != rank
            || self.warps_per_cta.len() != rank
        {
            return bad("its arrays have different lengths");
        }
        let mut seen = vec![false; rank];
        for &a in &self.order {
            if a >= rank || std::mem::replace(&mut seen[a], true) {
                return bad("order is not a permutation of the axes");
            }
        }
        if self.threads_per_warp.iter().product::<u32>() != WARP_SIZE {
            return bad("threads_per_warp must multiply to 32");
        }
        let all = [
            &self.size_per_thread,
            &self.threads_per_warp,
            &self.warps_per_cta,
        ];
        if all
            .iter()
            .any(|v| v.iter().any(|&x| x == 0 || !x.is_power_of_two()))
        {
            return bad("every entry must be a power of two");
        }
        Ok(())
    }
}

/// Gives `total` (a power of two) threads or warps to the axes in `order`,
/// each axis taking as many as fit in its extent beyond what `covered`
/// already spans; what is left goes to the slowest axis.
fn spread(shape: &[i64], order: &[usize], covered: &[i64], total: u32) -> Vec<u32> {
    let mut out = vec![1u32; shape.len()];
    let mut left = total;
    for &axis in order {
        let room = (shape[axis] / covered[axis]).max(1);
        let take = u32::try_from(room).unwrap_or(u32::MAX).min(left);
        out[axis] = take;
        left /= take;
    }
    if let Some(&slowest) = order.last() {
        out[slowest] *= left;
    }
    out
}

/// Tensor shapes must have power-of-two extents (so that the thread
/// patterns tile them exactly).
pub fn check_shape(shape: &[i64]) -> Result<(), LayoutError> {
    if shape.is_empty() {
        return Err(LayoutError("a scalar has no layout".into()));
    }
    if let Some(d) = shape.iter().find(|&&d| d <= 0 || (d & (d - 1)) != 0) {
        return Err(LayoutError(format!(
            "tensor extents must be powers of two, got {d} in {shape:?}"
        )));
    }
    Ok(())
}

/// The layout at the root of a chain of slices.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Root {
    /// A blocked layout.
    Blocked(Blocked),
    /// A tensor-core accumulator layout.
    Mma(Mma),
}

/// How a thread's base index along one root axis is formed from its lane
/// and warp numbers: `lane_scale * lane_digit + warp_scale * warp_digit`,
/// with `lane_digit = (lane >> lane_shift) & (threads - 1)` and likewise
/// for warps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaseTerms {
    /// Elements between the threads of consecutive lane digits.
    pub lane_scale: i64,
    /// Threads of a warp along the axis.
    pub threads: i64,
    /// Lane bits below this axis's digit.
    pub lane_shift: u32,
    /// Elements between consecutive warp digits.
    pub warp_scale: i64,
    /// Warps along the axis.
    pub warps: i64,
    /// Warp bits below this axis's digit.
    pub warp_shift: u32,
}

impl Root {
    /// The number of axes.
    pub fn rank(&self) -> usize {
        match self {
            Root::Blocked(b) => b.rank(),
            Root::Mma(_) => 2,
        }
    }

    /// The number of warps.
    pub fn num_warps(&self) -> u32 {
        match self {
            Root::Blocked(b) => b.num_warps(),
            Root::Mma(m) => m.num_warps(),
        }
    }

    /// Elements one repetition of the pattern covers along `axis`.
    pub fn cover(&self, axis: usize) -> i64 {
        match self {
            Root::Blocked(b) => b.cover(axis),
            Root::Mma(m) => m.cover(axis),
        }
    }

    /// Threads of a warp along `axis`.
    pub fn threads(&self, axis: usize) -> u32 {
        match self {
            Root::Blocked(b) => b.threads_per_warp[axis],
            Root::Mma(_) => [8, 4][axis],
        }
    }

    /// Warps along `axis`.
    pub fn warps(&self, axis: usize) -> u32 {
        match self {
            Root::Blocked(b) => b.warps_per_cta[axis],
            Root::Mma(m) => m.warps_per_cta[axis],
        }
    }

    /// Consecutive elements a thread holds along `axis` in consecutive
    /// registers.
    pub fn size_per_thread(&self, axis: usize) -> u32 {
        match self {
            Root::Blocked(b) => b.size_per_thread[axis],
            Root::Mma(_) => [1, 2][axis],
        }
    }

    /// The axes from fastest- to slowest-varying in a thread's registers.
    pub fn order(&self) -> Vec<usize> {
        match self {
            Root::Blocked(b) => b.order.clone(),
            Root::Mma(_) => vec![1, 0],
        }
    }

    /// How a thread's base index along `axis` is formed.
    pub fn base_terms(&self, axis: usize) -> BaseTerms {
        match self {
            Root::Blocked(b) => {
                let mut lane_shift = 0;
                let mut warp_shift = 0;
                for &j in &b.order {
                    if j == axis {
                        break;
                    }
                    lane_shift += b.threads_per_warp[j].trailing_zeros();
                    warp_shift += b.warps_per_cta[j].trailing_zeros();
                }
                let spt = i64::from(b.size_per_thread[axis]);
                let threads = i64::from(b.threads_per_warp[axis]);
                BaseTerms {
                    lane_scale: spt,
                    threads,
                    lane_shift,
                    warp_scale: spt * threads,
                    warps: i64::from(b.warps_per_cta[axis]),
                    warp_shift,
                }
            }
            Root::Mma(m) => {
                let [wm, wn] = m.warps_per_cta;
                if axis == 0 {
                    BaseTerms {
                        lane_scale: 1,
                        threads: 8,
                        lane_shift: 2,
                        warp_scale: crate::mma::MMA_ROWS,
                        warps: i64::from(wm),
                        warp_shift: 0,
                    }
                } else {
                    BaseTerms {
                        lane_scale: 2,
                        threads: 4,
                        lane_shift: 0,
                        warp_scale: i64::from(m.instr_n),
                        warps: i64::from(wn),
                        warp_shift: wm.trailing_zeros(),
                    }
                }
            }
        }
    }
}

impl Layout {
    /// The number of axes of tensors in this layout.
    pub fn rank(&self) -> usize {
        match self {
            Layout::Blocked(b) => b.rank(),
            Layout::Mma(_) => 2,
            Layout::Slice { parent, .. } => parent.rank() - 1,
        }
    }

    /// The slice of this layout without axis `dim`.
    pub fn slice(&self, dim: usize) -> Layout {
        Layout::Slice {
            dim,
            parent: Box::new(self.clone()),
        }
    }

    /// The layout at the root of any slices, and for each axis of this
    /// layout the root axis it stands for.
    pub fn root(&self) -> (Root, Vec<usize>) {
        match self {
            Layout::Blocked(b) => (Root::Blocked(b.clone()), (0..b.rank()).collect()),
            Layout::Mma(m) => (Root::Mma(m.clone()), vec![0, 1]),
            Layout::Slice { dim, parent } => {
                let (b, mut axes) = parent.root();
                axes.remove(*dim);
                (b, axes)
            }
        }
    }

    /// Checks the root layout's invariants and every slice's axis.
    pub fn validate(&self) -> Result<(), LayoutError> {
        match self {
            Layout::Blocked(b) => b.validate(),
            Layout::Mma(m) => m.validate(),
            Layout::Slice { dim, parent } => {
                parent.validate()?;
                if *dim >= parent.rank() || parent.rank() < 2 {
                    return Err(LayoutError(format!(
                        "invalid slice layout {self}: axis {dim} of a rank-{} parent",
                        parent.rank()
                    )));
                }
                Ok(())
            }
        }
    }

    /// Parses the printed form of the attribute (`#tile.blocked<...>` or
    /// `#tile.slice<...>`).
    pub fn parse(text: &str) -> Result<Layout, LayoutError> {
        let mut p = Parser {
            s: text.trim(),
            i: 0,
        };
        let layout = p.layout()?;
        p.skip_ws();
        if p.i != p.s.len() {
            return Err(p.error("trailing text"));
        }
        layout.validate()?;
        Ok(layout)
    }

    /// The layout in the encoding of a printed tensor type, if it has one.
    pub fn of_type(type_text: &str) -> Result<Option<Layout>, LayoutError> {
        let Some(inner) = type_text
            .trim()
            .strip_prefix("tensor<")
            .and_then(|t| t.strip_suffix('>'))
        else {
            return Ok(None);
        };
        match inner.split_once(',') {
            Some((_, encoding)) => Layout::parse(encoding).map(Some),
            None => Ok(None),
        }
    }
}

fn array(f: &mut fmt::Formatter<'_>, values: impl Iterator<Item = u64>) -> fmt::Result {
    let values: Vec<String> = values.map(|v| v.to_string()).collect();
    write!(f, "array<i32: {}>", values.join(", "))
}

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("#tile.blocked<")?;
        array(f, self.size_per_thread.iter().map(|&x| u64::from(x)))?;
        f.write_str(", ")?;
        array(f, self.threads_per_warp.iter().map(|&x| u64::from(x)))?;
        f.write_str(", ")?;
        array(f, self.warps_per_cta.iter().map(|&x| u64::from(x)))?;
        f.write_str(", ")?;
        array(f, self.order.iter().map(|&x| x as u64))?;
        f.write_str(">")
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Layout::Blocked(b) => write!(f, "{b}"),
            Layout::Mma(m) => write!(f, "{m}"),
            Layout::Slice { dim, parent } => write!(f, "#tile.slice<{dim} : i32, {parent}>"),
        }
    }
}

struct Parser<'a> {
    s: &'a str,
    i: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> LayoutError {
        LayoutError(format!(
            "cannot read layout '{}': {what} at column {}",
            self.s,
            self.i + 1
        ))
    }

    fn skip_ws(&mut self) {
        while self.s[self.i..].starts_with(char::is_whitespace) {
            self.i += 1;
        }
    }

    fn eat(&mut self, token: &str) -> Result<(), LayoutError> {
        self.skip_ws();
        if self.s[self.i..].starts_with(token) {
            self.i += token.len();
            Ok(())
        } else {
            Err(self.error(&format!("expected '{token}'")))
        }
    }

    fn number(&mut self) -> Result<u64, LayoutError> {
        self.skip_ws();
        let digits = self.s[self.i..]
            .chars()
            .take_while(char::is_ascii_digit)
            .count();
        let n = self.s[self.i..self.i + digits]
            .parse()
            .map_err(|_| self.error("expected a number"))?;
        self.i += digits;
        Ok(n)
    }

    fn array(&mut self) -> Result<Vec<u64>, LayoutError> {
        self.eat("array<i32")?;
        let mut out = Vec::new();
        self.skip_ws();
        if self.s[self.i..].starts_with(':') {
            self.eat(":")?;
            loop {
                out.push(self.number()?);
                self.skip_ws();
                if self.s[self.i..].starts_with(',') {
                    self.eat(",")?;
                } else {
                    break;
                }
            }
        }
        self.eat(">")?;
        Ok(out)
    }

    fn layout(&mut self) -> Result<Layout, LayoutError> {
        self.skip_ws();
        let narrow = |v: Vec<u64>| -> Vec<u32> {
            v.into_iter()
                .map(|x| u32::try_from(x).unwrap_or(0))
                .collect()
        };
        if self.s[self.i..].starts_with("#tile.blocked<") {
            self.eat("#tile.blocked<")?;
            let size_per_thread = narrow(self.array()?);
            self.eat(",")?;
            let threads_per_warp = narrow(self.array()?);
            self.eat(",")?;
            let warps_per_cta = narrow(self.array()?);
            self.eat(",")?;
            let order = self.array()?.into_iter().map(|x| x as usize).collect();
            self.eat(">")?;
            Ok(Layout::Blocked(Blocked {
                size_per_thread,
                threads_per_warp,
                warps_per_cta,
                order,
            }))
        } else if self.s[self.i..].starts_with("#tile.slice<") {
            self.eat("#tile.slice<")?;
            let dim = self.number()? as usize;
            self.eat(":")?;
            self.eat("i32")?;
            self.eat(",")?;
            let parent = self.layout()?;
            self.eat(">")?;
            Ok(Layout::Slice {
                dim,
                parent: Box::new(parent),
            })
        } else if self.s[self.i..].starts_with("#tile.mma<") {
            self.eat("#tile.mma<")?;
            let version = self.number()? as u32;
            self.eat(":")?;
            self.eat("i32")?;
            self.eat(",")?;
            let warps = narrow(self.array()?);
            self.eat(",")?;
            let instr_n = self.number()? as u32;
            self.eat(":")?;
            self.eat("i32")?;
            self.eat(">")?;
            let [wm, wn] = warps[..] else {
                return Err(self.error("an mma layout has warps along two axes"));
            };
            Ok(Layout::Mma(Mma {
                version,
                warps_per_cta: [wm, wn],
                instr_n,
            }))
        } else {
            Err(self.error("expected #tile.blocked, #tile.mma or #tile.slice"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_layouts_spread_threads_from_the_fastest_axis() {
        let b = Blocked::default_for(&[16, 64], 4).unwrap();
        assert_eq!(b.threads_per_warp, vec![1, 32]);
        assert_eq!(b.warps_per_cta, vec![2, 2]);
        assert_eq!(b.order, vec![1, 0]);
        let b = Blocked::default_for(&[1024], 4).unwrap();
        assert_eq!((b.threads_per_warp[0], b.warps_per_cta[0]), (32, 4));
        // Too small: leftover threads and warps replicate on the slowest axis.
        let b = Blocked::default_for(&[1, 4], 8).unwrap();
        assert_eq!(b.threads_per_warp, vec![8, 4]);
        assert_eq!(b.warps_per_cta, vec![8, 1]);
        b.validate().unwrap();
        assert!(Blocked::default_for(&[12], 4).is_err());
        assert!(Blocked::default_for(&[16], 3).is_err());
    }

    /// Warps re-spread rows first: 8 rows of 1024 over 8 warps put a warp
    /// on each row (threads and vectors unchanged); 4 rows give two warps
    /// a row; one row keeps all 8 along it; leftovers go to the last axis
    /// of the warp order.
    #[test]
    fn warps_spread_over_rows_first_when_asked() {
        let row_major = |rows| Blocked::spread_over(&[rows, 1024], 8, &[1, 0], &[1, 4]).unwrap();
        let eight = row_major(8);
        assert_eq!(eight.warps_per_cta, vec![1, 8]);
        let by_rows = eight.with_warp_order(&[8, 1024], &[0, 1]).unwrap();
        assert_eq!(by_rows.warps_per_cta, vec![8, 1]);
        assert_eq!(
            (
                &by_rows.size_per_thread,
                &by_rows.threads_per_warp,
                &by_rows.order
            ),
            (
                &eight.size_per_thread,
                &eight.threads_per_warp,
                &eight.order
            )
        );
        let four = row_major(4).with_warp_order(&[4, 1024], &[0, 1]).unwrap();
        assert_eq!(four.warps_per_cta, vec![4, 2]);
        let one = row_major(1).with_warp_order(&[1, 1024], &[0, 1]).unwrap();
        assert_eq!(one.warps_per_cta, vec![1, 8]);
        let small = Blocked::spread_over(&[2, 32], 8, &[1, 0], &[1, 4]).unwrap();
        assert_eq!(
            small
                .with_warp_order(&[2, 32], &[0, 1])
                .unwrap()
                .warps_per_cta,
            vec![1, 8]
        );
        assert!(eight.with_warp_order(&[8, 1024], &[0, 0]).is_err());
        assert!(eight.with_warp_order(&[8, 1024], &[0]).is_err());
    }

    /// Shapes have power-of-two extents, at least one axis.
    #[test]
    fn shapes_are_powers_of_two() {
        for shape in [&[1i64][..], &[16, 64], &[1, 1024, 2]] {
            assert!(check_shape(shape).is_ok(), "{shape:?}");
        }
        for shape in [&[][..], &[12], &[0], &[-4], &[16, 0], &[16, 48]] {
            assert!(check_shape(shape).is_err(), "{shape:?}");
        }
    }

    /// [`Blocked::spread_over`] refuses what it cannot spread: warp counts
    /// that are not powers of two (even when the warps that fit would be),
    /// and orders that are not permutations of the axes.
    #[test]
    fn spreading_needs_powers_of_two_and_a_permutation() {
        // 128 elements leave room for 4 warps of 32 threads; 6 is refused,
        // not cut down to 4.
        assert!(Blocked::default_for(&[128], 6).is_err());
        assert!(Blocked::default_for(&[128], 0).is_err());
        assert_eq!(Blocked::default_for(&[128], 4).unwrap().num_warps(), 4);
        for order in [&[0usize, 5][..], &[2, 0], &[0], &[1, 0, 2], &[1, 1]] {
            assert!(
                Blocked::spread_over(&[16, 64], 4, order, &[1, 1]).is_err(),
                "{order:?}"
            );
        }
        let b = Blocked::spread_over(&[16, 64], 4, &[0, 1], &[4, 1]).unwrap();
        assert_eq!(b.order, [0, 1]);
        assert_eq!(b.size_per_thread, [4, 1]);
    }

    /// [`Blocked::validate`] checks each invariant on its own.
    #[test]
    fn blocked_layouts_are_validated() {
        let good = Blocked {
            size_per_thread: vec![1, 4],
            threads_per_warp: vec![2, 16],
            warps_per_cta: vec![4, 1],
            order: vec![1, 0],
        };
        assert!(good.validate().is_ok());
        type Breaks = fn(&mut Blocked);
        let broken: [(&str, Breaks); 9] = [
            ("no axes", |b| {
                *b = Blocked {
                    size_per_thread: vec![],
                    threads_per_warp: vec![],
                    warps_per_cta: vec![],
                    order: vec![],
                }
            }),
            ("short size_per_thread", |b| b.size_per_thread = vec![4]),
            ("short threads_per_warp", |b| b.threads_per_warp = vec![32]),
            ("short warps_per_cta", |b| b.warps_per_cta = vec![4]),
            ("repeated axis", |b| b.order = vec![1, 1]),
            ("axis out of range", |b| b.order = vec![0, 2]),
            ("16 threads", |b| b.threads_per_warp = vec![1, 16]),
            ("3 elements", |b| b.size_per_thread = vec![3, 1]),
            ("0 warps", |b| b.warps_per_cta = vec![0, 1]),
        ];
        for (why, breaks) in broken {
            let mut b = good.clone();
            breaks(&mut b);
            assert!(b.validate().is_err(), "{why}");
        }
    }

    /// A slice removes an axis its parent has, and leaves at least one.
    #[test]
    fn slices_remove_an_existing_axis() {
        let rank = |r: usize| Layout::Blocked(Blocked::default_for(&vec![16; r], 4).unwrap());
        assert!(rank(2).slice(1).validate().is_ok());
        assert!(rank(3).slice(0).validate().is_ok());
        assert!(rank(3).slice(1).slice(1).validate().is_ok());
        assert!(rank(2).slice(2).validate().is_err());
        assert!(rank(1).slice(0).validate().is_err());
        assert!(rank(2).slice(0).slice(0).validate().is_err());
    }

    /// [`Root`]'s per-axis figures are the root layout's: the blocked
    /// layout's arrays, the mma fragment's 8 x 4 threads and 1 x 2
    /// consecutive elements a thread.
    #[test]
    fn roots_report_their_layouts_figures() {
        let b = Blocked {
            size_per_thread: vec![2, 4],
            threads_per_warp: vec![4, 8],
            warps_per_cta: vec![2, 4],
            order: vec![1, 0],
        };
        let root = Root::Blocked(b);
        assert_eq!([root.size_per_thread(0), root.size_per_thread(1)], [2, 4]);
        assert_eq!([root.threads(0), root.threads(1)], [4, 8]);
        assert_eq!([root.warps(0), root.warps(1)], [2, 4]);
        assert_eq!([root.cover(0), root.cover(1)], [16, 128]);
        let root = Root::Mma(Mma {
            version: 3,
            warps_per_cta: [8, 2],
            instr_n: 64,
        });
        assert_eq!([root.size_per_thread(0), root.size_per_thread(1)], [1, 2]);
        assert_eq!([root.threads(0), root.threads(1)], [8, 4]);
        assert_eq!([root.warps(0), root.warps(1)], [8, 2]);
        assert_eq!(root.num_warps(), 16);
    }

    #[test]
    fn layouts_print_and_parse_back() {
        let b = Layout::Blocked(Blocked::default_for(&[16, 64], 4).unwrap());
        let s = b.slice(1);
        let text = s.to_string();
        assert_eq!(
            text,
            "#tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 2, 2>, array<i32: 1, 0>>>"
        );
        assert_eq!(Layout::parse(&text).unwrap(), s);
        let ty = format!("tensor<16xi32, {text}>");
        assert_eq!(Layout::of_type(&ty).unwrap(), Some(s));
        assert_eq!(Layout::of_type("tensor<16xi32>").unwrap(), None);
        assert!(
            Layout::parse(
                "#tile.blocked<array<i32: 1>, array<i32: 16>, array<i32: 4>, array<i32: 0>>"
            )
            .is_err()
        );
        assert!(Layout::parse("#tile.slice<2 : i32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>").is_err());
    }
}
