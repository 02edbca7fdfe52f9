//! Texts made from a board for more than one door: the board mail ([`board`]) and the records
//! other programs read ([`export`]).

pub mod board;
pub mod export;
