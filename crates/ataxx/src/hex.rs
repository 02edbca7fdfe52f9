//! Hex text of packed boards and messages (the square game's and four-player Ataxx's): pairs of
//! digits, lower case when written, white space allowed between bytes when read.
//!
//! ```
//! assert_eq!(ataxx::hex::read("0a ff").unwrap(), vec![0x0a, 0xff]);
//! assert!(ataxx::hex::read("0 a").is_err());
//! assert_eq!(ataxx::hex::write(&[0x0a, 0xff]), "0aff");
//! ```

use std::fmt::Write;

/// A white-space-separated group that is not whole hex bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadGroup(pub String);

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
