//! The CLI's tests of its other commands, one binary: a module per command (perft, blocks,
//! encodings, records, play, UAI, match, datagen, train, tune, ...), each running the built
//! `ataxx` as a user would. The helpers are [`common`], compiled once. Each test writes only in
//! a temporary folder of its own, so the tests run in parallel on the harness's threads.

mod common;

mod analyze;
mod blocks;
mod closed_output;
mod datagen;
mod diagram;
mod encode;
mod encode_ataxx4;
mod fuzz_replay;
mod r#match;
mod perft;
mod play;
mod python_ataxx;
mod replay;
mod train;
mod tune;
mod uai;
mod uai_variants;
