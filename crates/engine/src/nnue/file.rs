//! The net file: a versioned header, the quantised weights and a checksum, little-endian.
//!
//! | Bytes | Field |
//! |---|---|
//! | 0–7 | magic `ATAXXNET` |
//! | 8–11 | format version (u32, [`VERSION`]) |
//! | 12–15 | input set (u32, [`INPUT_SET`]: 7×7 board, 2×2 windows, 4 cell states) |
//! | 16–19 | hidden units per side (u32) |
//! | 20–23, 24–27 | the scales `QA`, `QB` (u32) |
//! | 28–31 | hundredths of a piece per logit unit (i32) |
//! | 32– | first-layer weights (`INPUTS × HIDDEN` i16 within the `i8` range, one row per input), biases (`HIDDEN` i16), output weights (`2 × HIDDEN` i16), output bias (i32) |
//! | last 8 | FNV-1a 64 of everything before (u64) |

use std::io;

use thiserror::Error;

use super::features::{INPUTS, WINDOWS};
use super::simd::Backend;
use super::{Network, HIDDEN, QA, QB};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"ATAXXNET";
/// The version this build reads and writes.
pub const VERSION: u32 = 1;
/// The input set this build computes.
pub const INPUT_SET: u32 = 1;

const HEADER_BYTES: usize = 32;
const BODY_BYTES: usize = 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;
/// The size of a net file of this build's shape.
pub const FILE_BYTES: usize = HEADER_BYTES + BODY_BYTES + 8;

/// Why a net file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NetError {
    #[error("cannot read the net file {path}: {kind}")]
    Io { path: String, kind: io::ErrorKind },
    #[error("not a net file (it does not start with ATAXXNET)")]
    BadMagic,
    #[error("net file version {0}; this build reads version {VERSION}")]
    UnsupportedVersion(u32),
    #[error("the net's {field} is {found}; this build needs {expected}")]
    Shape {
        field: &'static str,
        expected: i64,
        found: i64,
    },
    #[error("the net file has {found} bytes; its header promises {expected}")]
    Length { expected: usize, found: usize },
    #[error("the net file is corrupt (checksum mismatch)")]
    Checksum,
    #[error("hidden unit {0}'s weights could overflow its 16-bit accumulator")]
    Overflow(usize),
    #[error("first-layer weight {index} is {value}, outside the 8-bit range this build stores")]
    InputWeightRange { index: usize, value: i16 },
}

pub(super) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Network {
    /// The net as a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(MAGIC);
        for v in [VERSION, INPUT_SET, HIDDEN as u32, QA as u32, QB as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.scale.to_le_bytes());
        let w1 = self.w1.iter().map(|&w| i16::from(w));
        for w in w1
            .chain(self.b1.iter().copied())
            .chain(self.w2.iter().copied())
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a net file, checking its header, length, checksum and weight ranges.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let version = u32_at(8);
        if version != VERSION {
            return Err(NetError::UnsupportedVersion(version));
        }
        for (field, at, expected) in [
            ("input set", 12, INPUT_SET),
            ("hidden size", 16, HIDDEN as u32),
            ("QA", 20, QA as u32),
            ("QB", 24, QB as u32),
        ] {
            if u32_at(at) != expected {
                return Err(NetError::Shape {
                    field,
                    expected: i64::from(expected),
                    found: i64::from(u32_at(at)),
                });
            }
        }
        if bytes.len() != FILE_BYTES {
            return Err(NetError::Length {
                expected: FILE_BYTES,
                found: bytes.len(),
            });
        }
        let (content, sum) = bytes.split_at(FILE_BYTES - 8);
        if fnv1a(content) != u64::from_le_bytes(sum.try_into().expect("8")) {
            return Err(NetError::Checksum);
        }
        let scale = u32_at(28) as i32;
        if scale <= 0 {
            return Err(NetError::Shape {
                field: "scale",
                expected: 1,
                found: i64::from(scale),
            });
        }
        let mut words = content[HEADER_BYTES..content.len() - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let w1 = words
            .by_ref()
            .take(INPUTS * HIDDEN)
            .enumerate()
            .map(|(index, value)| {
                i8::try_from(value).map_err(|_| NetError::InputWeightRange { index, value })
            })
            .collect::<Result<Box<[i8]>, _>>()?;
        let mut take = |n: usize| words.by_ref().take(n).collect::<Box<[i16]>>();
        let (b1, w2) = (take(HIDDEN), take(2 * HIDDEN));
        let b2 = i32::from_le_bytes(content[content.len() - 4..].try_into().expect("4"));
        let net = Network {
            w1,
            b1,
            w2,
            b2,
            scale,
            backend: Backend::detect(),
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// Every accumulator stays within `i16`: the bias plus the largest row entry of each
    /// window. (Output sums cannot overflow `i32`: 256 products of at most 255 · 2¹⁵.)
    fn check_ranges(&self) -> Result<(), NetError> {
        let patterns = INPUTS / WINDOWS;
        for unit in 0..HIDDEN {
            let mut bound = i32::from(self.b1[unit]).abs();
            for window in 0..WINDOWS {
                bound += (0..patterns)
                    .map(|p| i32::from(self.w1[(window * patterns + p) * HIDDEN + unit]).abs())
                    .max()
                    .unwrap_or(0);
            }
            if bound > i32::from(i16::MAX) {
                return Err(NetError::Overflow(unit));
            }
        }
        Ok(())
    }
}
