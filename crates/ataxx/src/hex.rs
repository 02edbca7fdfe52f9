//! Hex text of packed boards and messages (the square game's and four-player Ataxx's): pairs of
//! digits, lower case when written, white space allowed between bytes when read.
//! [`impl_hex_text!`](crate::impl_hex_text) gives a type of bytes this text.
//!
//! ```
//! assert_eq!(ataxx::hex::read("0a ff").unwrap(), vec![0x0a, 0xff]);
//! assert!(ataxx::hex::read("0 a").is_err());
//! assert_eq!(ataxx::hex::write(&[0x0a, 0xff]), "0aff");
//! ```

use std::fmt::Write;

use thiserror::Error;

/// A white-space-separated group that is not whole hex bytes.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0:?} is not hex bytes: expected pairs of digits 0-9, a-f, with spaces allowed only between bytes")]
pub struct BadGroup(pub String);

/// Implements `Display` (lower-case [`hex::write`](crate::hex::write)) and `FromStr`
/// ([`hex::read`](crate::hex::read): either case, white space between bytes) for a type of
/// bytes, by a method that gives its bytes and its `from_bytes`, whose error `E` must take a
/// [`BadGroup`](crate::hex::BadGroup) by `From`: `impl_hex_text!(Type, bytes_method, E)`.
///
/// ```
/// #[derive(Debug, PartialEq)]
/// struct Pair([u8; 2]);
///
/// #[derive(Debug, PartialEq)]
/// enum PairError {
///     Hex(ataxx::hex::BadGroup),
///     Length(usize),
/// }
///
/// impl From<ataxx::hex::BadGroup> for PairError {
///     fn from(bad: ataxx::hex::BadGroup) -> PairError {
///         PairError::Hex(bad)
///     }
/// }
///
/// impl Pair {
///     fn bytes(&self) -> [u8; 2] {
///         self.0
///     }
///
///     fn from_bytes(bytes: &[u8]) -> Result<Pair, PairError> {
///         bytes.try_into().map(Pair).map_err(|_| PairError::Length(bytes.len()))
///     }
/// }
///
/// ataxx::impl_hex_text!(Pair, bytes, PairError);
///
/// assert_eq!(Pair([0x0a, 0xff]).to_string(), "0aff");
/// assert_eq!("0A FF".parse::<Pair>(), Ok(Pair([0x0a, 0xff])));
/// assert_eq!("0aff00".parse::<Pair>(), Err(PairError::Length(3)));
/// assert!(matches!("0 aff".parse::<Pair>(), Err(PairError::Hex(_))));
/// ```
#[macro_export]
macro_rules! impl_hex_text {
    ($type:ty, $bytes:ident, $error:ty) => {
        impl ::std::fmt::Display for $type {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(&$crate::hex::write(&self.$bytes()))
            }
        }

        impl ::std::str::FromStr for $type {
            type Err = $error;

            fn from_str(text: &str) -> ::std::result::Result<$type, $error> {
                <$type>::from_bytes(&$crate::hex::read(text)?)
            }
        }
    };
}

/// Reads hex bytes; white space may separate bytes but not split one.
pub fn read(text: &str) -> Result<Vec<u8>, BadGroup> {
    let mut out = Vec::new();
    for group in text.split_whitespace() {
        if group.len() % 2 != 0 || !group.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(BadGroup(group.to_string()));
        }
        for i in (0..group.len()).step_by(2) {
            out.push(u8::from_str_radix(&group[i..i + 2], 16).expect("checked hex digits"));
        }
    }
    Ok(out)
}

/// Two lower-case hex digits per byte.
pub fn write(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}
