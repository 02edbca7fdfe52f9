//! Why a net cannot be used: the one error of the net's constructors and of its file, kept
//! apart from both so that neither needs the other's module.

use std::io;

use thiserror::Error;

/// The net file format version this build writes (it reads version 1 too).
pub const VERSION: u32 = 2;

/// Why a net file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NetError {
    #[error("cannot read the net file {path}: {kind}")]
    Io { path: String, kind: io::ErrorKind },
    #[error("not a net file (it does not start with ATAXXNET)")]
    BadMagic,
    #[error("net file version {0}; this build reads versions 1 and {VERSION}")]
    UnsupportedVersion(u32),
    #[error("the net's {field} is {found}; this build needs {expected}")]
    Shape {
        field: &'static str,
        expected: i64,
        found: i64,
    },
    #[error(
        "the net has {0} hidden units per side; this build takes a multiple of 16 from 16 to 256"
    )]
    HiddenSize(u64),
    #[error("unknown activation {0:?} (crelu: clipped ReLU, screlu: squared clipped ReLU)")]
    UnknownActivation(String),
    #[error("the net file has {found} bytes; its header promises {expected}")]
    Length { expected: usize, found: usize },
    #[error("the net file is corrupt (checksum mismatch)")]
    Checksum,
    #[error("hidden unit {0}'s weights could overflow its 16-bit accumulator")]
    Overflow(usize),
    #[error("first-layer weight {index} is {value}, outside the 8-bit range this build stores")]
    InputWeightRange { index: usize, value: i16 },
    #[error("output weight {index} is {value}; the squared activation needs them within ±127")]
    OutputWeightRange { index: usize, value: i16 },
}
