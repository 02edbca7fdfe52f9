//! The engine's evaluation: the learned network on 7×7 boards when one is loaded, the
//! hand-crafted evaluation elsewhere. It joins [`crate::eval`] and [`crate::nnue`], which
//! know nothing of each other's evaluators.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use ataxx::Position;

use crate::eval::{Evaluator, HandCrafted};
use crate::nnue::features::BOARD_SIZE;
use crate::nnue::Network;

/// The net the binary ships with: measured stronger than the hand-crafted evaluation
/// (docs/strength.md; its training recipe in docs/nnue.md).
const EMBEDDED: Option<&[u8]> = Some(include_bytes!("../nets/default.nnue"));

/// The engine's evaluation: a network on 7×7 boards when one is loaded, the hand-crafted
/// evaluation on other boards and when none is. `EvalFile` (UAI) loads a net file; an empty
/// value or `<default>` returns to the built-in choice.
#[derive(Clone, Debug)]
pub struct NetEval {
    net: Option<Arc<Network>>,
    hand: HandCrafted,
}

impl NetEval {
    /// `net` on 7×7 boards (none: hand-crafted everywhere).
    pub fn new(net: Option<Network>) -> NetEval {
        NetEval {
            net: net.map(Arc::new),
            hand: HandCrafted::default(),
        }
    }

    /// The built-in evaluation: the embedded net, if the binary has one. The net is read once
    /// per process and shared, so a server may make one for every search.
    pub fn builtin() -> NetEval {
        static EMBEDDED_NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
        NetEval {
            net: EMBEDDED_NET
                .get_or_init(|| {
                    EMBEDDED.map(|bytes| {
                        Arc::new(Network::from_bytes(bytes).expect("the embedded net is valid"))
                    })
                })
                .clone(),
            hand: HandCrafted::default(),
        }
    }
}

impl Default for NetEval {
    fn default() -> Self {
        NetEval::builtin()
    }
}

impl Evaluator for NetEval {
    fn evaluate(&self, pos: &Position) -> i32 {
        match self.network() {
            Some(net) if pos.size() == BOARD_SIZE => net.evaluate_position(pos),
            _ => self.hand.evaluate(pos),
        }
    }

    fn network(&self) -> Option<&Network> {
        self.net.as_deref()
    }

    fn option_lines(&self) -> Vec<String> {
        vec!["option name EvalFile type string default <default>".to_string()]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        if name != "evalfile" {
            return None;
        }
        let value = value.trim();
        Some(if value.is_empty() || value == "<default>" {
            *self = NetEval::builtin();
            Ok(())
        } else {
            Network::load(Path::new(value))
                .map(|net| self.net = Some(Arc::new(net)))
                .map_err(|e| format!("EvalFile: {e}"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::tests::{test_net, SHAPES, STARTS};

    #[test]
    fn eval_file_loads_a_net_and_reports_a_bad_one() {
        let dir = std::env::temp_dir().join(format!("ataxx-nnue-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.nnue");
        let net = test_net(SHAPES[1]).quantise();
        std::fs::write(&good, net.to_bytes()).unwrap();
        let bad = dir.join("bad.nnue");
        std::fs::write(&bad, b"not a net").unwrap();

        let mut eval = NetEval::new(None);
        let pos: Position = STARTS[0].parse().unwrap();
        assert_eq!(eval.evaluate(&pos), HandCrafted::default().evaluate(&pos));
        assert_eq!(
            eval.set_option("evalfile", good.to_str().unwrap()),
            Some(Ok(()))
        );
        assert_eq!(eval.evaluate(&pos), net.evaluate_position(&pos));
        // Other board sizes keep the hand-crafted evaluation.
        let five: Position = "x3o/5/5/5/o3x x 0 1".parse().unwrap();
        assert_eq!(eval.evaluate(&five), HandCrafted::default().evaluate(&five));
        let error = eval
            .set_option("evalfile", bad.to_str().unwrap())
            .unwrap()
            .unwrap_err();
        assert!(error.contains("not a net file"), "{error}");
        let missing = eval
            .set_option("evalfile", "/no/such/file.nnue")
            .unwrap()
            .unwrap_err();
        assert!(missing.contains("/no/such/file.nnue"), "{missing}");
        // A failed load keeps the net that was there.
        assert_eq!(eval.evaluate(&pos), net.evaluate_position(&pos));
        assert_eq!(eval.set_option("hash", "1"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The network scoring every position from scratch: what the search's incremental units must
    /// reproduce.
    struct FromScratch(Network);

    impl Evaluator for FromScratch {
        fn evaluate(&self, pos: &Position) -> i32 {
            self.0.evaluate_position(pos)
        }
    }

    #[test]
    fn the_search_on_incremental_units_equals_the_search_on_fresh_evaluations() {
        use crate::search::Engine;
        use crate::time::Limits;
        use std::sync::atomic::AtomicBool;
        let limits = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        let fens = STARTS
            .iter()
            .chain(&["xxx2oo/xx3oo/x1x1o2/7/2o1x2/oo3xx/oo2xxx x 0 10"]);
        for (fen, shape) in fens.zip(SHAPES.iter().cycle()) {
            let net = test_net(*shape).quantise();
            let pos: Position = fen.parse().unwrap();
            let stop = AtomicBool::new(false);
            let incremental = Engine::new(NetEval::new(Some(net.clone())), 1).search(
                &pos,
                &limits,
                &stop,
                |_| {},
            );
            let fresh =
                Engine::new(FromScratch(net.clone()), 1).search(&pos, &limits, &stop, |_| {});
            assert_eq!(
                (incremental.nodes, incremental.score, &incremental.pv),
                (fresh.nodes, fresh.score, &fresh.pv),
                "{fen}"
            );
        }
    }

    /// Output of a UAI session kept for the test to read.
    #[derive(Clone, Default)]
    struct Transcript(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Transcript {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn uai_advertises_eval_file_and_loads_it() {
        use crate::search::Engine;
        let dir = std::env::temp_dir().join(format!("ataxx-uai-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("net.nnue");
        let net = test_net(SHAPES[1]).quantise();
        std::fs::write(&good, net.to_bytes()).unwrap();
        let script = format!(
            "uai\nsetoption name EvalFile value {}\neval\nsetoption name EvalFile value {}\neval\n\
             go depth 3\nisready\nquit\n",
            dir.join("missing.nnue").display(),
            good.display()
        );
        let out = Transcript::default();
        crate::uai::run(
            Engine::new(NetEval::new(None), 1),
            script.as_bytes(),
            out.clone(),
        )
        .unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines.contains(&"option name EvalFile type string default <default>"),
            "{text}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string EvalFile: cannot read the net file")),
            "{text}"
        );
        let start = Position::startpos();
        let evals: Vec<&str> = lines
            .iter()
            .filter(|l| l.starts_with("info string eval cp"))
            .copied()
            .collect();
        assert_eq!(
            evals,
            [
                format!(
                    "info string eval cp {}",
                    HandCrafted::default().evaluate(&start)
                ),
                format!("info string eval cp {}", net.evaluate_position(&start)),
            ]
        );
        assert!(lines.iter().any(|l| l.starts_with("bestmove ")), "{text}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
