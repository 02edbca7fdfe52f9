//! The net file: a versioned header, the quantised weights and a checksum, little-endian.
//!
//! | Bytes | Field |
//! |---|---|
//! | 0–7 | magic `ATAXXNET` |
//! | 8–11 | format version (u32: [`VERSION`] is written; version 1 is read too) |
//! | 12–15 | input set (u32, [`INPUT_SET`]: 7×7 board, 2×2 windows, 4 cell states) |
//! | 16–19 | hidden units per side (u32) |
//! | 20–23, 24–27 | the scales `QA`, `QB` (u32) |
//! | 28–31 | hundredths of a piece per logit unit (i32) |
//! | 32–35 | version 2 only: the activation ([`Activation::code`]; version 1 nets use the clipped ReLU) |
//! | then | first-layer weights (`INPUTS × hidden`, one row per input: `i8` in version 2, `i16` within the `i8` range in version 1), biases (`hidden` i16), output weights (`2 × hidden` i16), output bias (i32) |
//! | last 8 | FNV-1a 64 of everything before (u64) |

use super::error::NetError;
pub use super::error::VERSION;
use super::features::{INPUTS, WINDOWS};
use super::simd::Backend;
use super::{Activation, Network, Shape, QA};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"ATAXXNET";
/// The input set this build computes.
pub const INPUT_SET: u32 = 1;

/// Header bytes and bytes per first-layer weight of a format version.
fn layout(version: u32) -> Option<(usize, usize)> {
    match version {
        1 => Some((32, 2)),
        2 => Some((36, 1)),
        _ => None,
    }
}

/// The size of a net file of `shape` in format `version`.
pub fn file_bytes(shape: Shape, version: u32) -> usize {
    let (header, first_layer) = layout(version).expect("a known version");
    header + first_layer * INPUTS * shape.hidden + 2 * 3 * shape.hidden + 4 + 8
}

pub(super) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Network {
    /// The net as a file (format [`VERSION`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let shape = self.shape;
        let mut out = Vec::with_capacity(file_bytes(shape, VERSION));
        out.extend_from_slice(MAGIC);
        let qb = shape.activation.output_scale();
        for v in [
            VERSION,
            INPUT_SET,
            shape.hidden as u32,
            QA as u32,
            qb as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.scale.to_le_bytes());
        out.extend_from_slice(&shape.activation.code().to_le_bytes());
        out.extend(self.w1.iter().map(|&w| w as u8));
        for w in self.b1.iter().chain(self.w2.iter()) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a net file, checking its header, length, checksum and weight ranges.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let version = u32_at(8);
        let (header, first_layer) = layout(version).ok_or(NetError::UnsupportedVersion(version))?;
        if bytes.len() < header {
            return Err(NetError::Length {
                expected: header,
                found: bytes.len(),
            });
        }
        let hidden = u32_at(16);
        let activation = match version {
            1 => Activation::ClippedRelu,
            _ => Activation::from_code(u32_at(32))
                .ok_or_else(|| NetError::UnknownActivation(format!("code {}", u32_at(32))))?,
        };
        let shape = Shape::new(hidden as usize, activation)
            .map_err(|_| NetError::HiddenSize(u64::from(hidden)))?;
        for (field, at, expected) in [
            ("input set", 12, INPUT_SET),
            ("QA", 20, QA as u32),
            ("QB", 24, activation.output_scale() as u32),
        ] {
            if u32_at(at) != expected {
                return Err(NetError::Shape {
                    field,
                    expected: i64::from(expected),
                    found: i64::from(u32_at(at)),
                });
            }
        }
        let expected = file_bytes(shape, version);
        if bytes.len() != expected {
            return Err(NetError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let (content, sum) = bytes.split_at(expected - 8);
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
        let hidden = shape.hidden;
        let (w1_bytes, rest) = content[header..].split_at(first_layer * INPUTS * hidden);
        let w1 = match first_layer {
            1 => w1_bytes.iter().map(|&b| b as i8).collect::<Box<[i8]>>(),
            _ => w1_bytes
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .enumerate()
                .map(|(index, value)| {
                    i8::try_from(value).map_err(|_| NetError::InputWeightRange { index, value })
                })
                .collect::<Result<Box<[i8]>, _>>()?,
        };
        let (words, b2) = rest.split_at(rest.len() - 4);
        let mut words = words
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| words.by_ref().take(n).collect::<Box<[i16]>>();
        let (b1, w2) = (take(hidden), take(2 * hidden));
        let net = Network {
            shape,
            w1,
            b1,
            w2,
            b2: i32::from_le_bytes(b2.try_into().expect("4")),
            scale,
            backend: Backend::detect(),
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// Every accumulator stays within `i16`: the bias plus the largest row entry of each
    /// window. Output sums stay within `i32` per side: for the clipped ReLU, `hidden` products
    /// of at most 255 · 2¹⁵; for its square, the product of a unit and its weight must fit
    /// `i16` (|w| ≤ 127 at a unit of at most 255), and then 256 · 255 · 32,385 < 2³¹.
    fn check_ranges(&self) -> Result<(), NetError> {
        let hidden = self.shape.hidden;
        let patterns = INPUTS / WINDOWS;
        for unit in 0..hidden {
            let mut bound = i32::from(self.b1[unit]).abs();
            for window in 0..WINDOWS {
                bound += (0..patterns)
                    .map(|p| i32::from(self.w1[(window * patterns + p) * hidden + unit]).abs())
                    .max()
                    .unwrap_or(0);
            }
            if bound > i32::from(i16::MAX) {
                return Err(NetError::Overflow(unit));
            }
        }
        if self.shape.activation == Activation::SquaredClippedRelu {
            if let Some((index, &value)) = self.w2.iter().enumerate().find(|(_, w)| w.abs() > 127) {
                return Err(NetError::OutputWeightRange { index, value });
            }
        }
        Ok(())
    }
}
