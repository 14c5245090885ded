//! Which device a buffer belongs to, as launch arguments carry it.

use std::fmt;

/// The identity of one device: a CUDA context (by its ordinal and context
/// handle) or one CPU interpreter instance. Two [`Device`](super::Device)
/// handles that share memory (clones, or `Device::new(0)` twice) have the
/// same identity; separate interpreters ([`Device::interpreter`] called
/// twice) do not, and neither may read the other's buffers.
///
/// [`Device::interpreter`]: super::Device::interpreter
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeviceId {
    /// True for the CPU interpreter.
    pub interpreter: bool,
    /// The CUDA ordinal (0 for the interpreter).
    pub ordinal: usize,
    /// The context handle (CUDA) or instance number (interpreter).
    pub context: usize,
}

impl fmt::Display for DeviceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.interpreter {
            write!(f, "CPU interpreter #{}", self.context)
        } else {
            write!(f, "CUDA device {}", self.ordinal)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_name_their_kind() {
        let cpu = DeviceId {
            interpreter: true,
            ordinal: 0,
            context: 3,
        };
        let gpu = DeviceId {
            interpreter: false,
            ordinal: 1,
            context: 0x5555,
        };
        assert_eq!(cpu.to_string(), "CPU interpreter #3");
        assert_eq!(gpu.to_string(), "CUDA device 1");
    }
}
