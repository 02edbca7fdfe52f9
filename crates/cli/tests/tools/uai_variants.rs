//! UAI_Variant through real pipes: Hexxagon, Ankor and four-player Ataxx positions, then back to
//! square.

use std::time::Duration;

use games::GameKind;

use crate::common::uai_pipe::Engine;

const SECOND: Duration = Duration::from_secs(1);

#[test]
fn uai_variant_exchange_plays_hexxagon_ankor_and_ataxx4() {
    let mut engine = Engine::start(&["uai", "--level", "medium"]);
    engine.send("uai");
    let intro = engine.expect_line("uaiok", 5 * SECOND);
    assert!(
        intro.iter().any(|l| {
            l == "option name UAI_Variant type combo default ataxx var ataxx var hexxagon \
                  var ataxx4 var ankor"
        }),
        "{intro:?}"
    );
    for kind in [GameKind::Hexxagon, GameKind::Ankor, GameKind::Ataxx4] {
        engine.send(&format!("setoption name UAI_Variant value {kind}"));
        engine.send("uainewgame");
        engine.send("isready");
        engine.expect_line("readyok", 5 * SECOND);
        let mut pos = kind.start(&Default::default()).unwrap();
        for ply in 0..6 {
            engine.send(&format!("position fen {}", pos.fen()));
            engine.send(if ply % 2 == 0 {
                "go depth 2"
            } else {
                "go movetime 100"
            });
            let mv = engine.bestmove(10 * SECOND).0;
            assert!(
                pos.legal_moves().contains(&mv),
                "{kind}: {mv} in {}",
                pos.fen()
            );
            pos.play(&mv).unwrap();
        }
    }
    // Four-player Ataxx has no `medium`: the engine says so and searches within `go`'s time.
    engine.send("position fen 2y1g/5/2b1r/5/5 r 0 1");
    engine.send("go movetime 100");
    let (mv, lines) = engine.bestmove(10 * SECOND);
    assert!(
        lines.iter().any(|l| l
            == "info string unknown level \"medium\" for ataxx4; levels: very-easy, easy, hard; \
                searching instead"),
        "{lines:?}"
    );
    assert_eq!(mv, "d4");
    // A forced four-player win, found by the paranoid search.
    engine.send("position fen 2y1g/5/2b1r/5/5 r 0 1");
    engine.send("go depth 3");
    assert_eq!(engine.bestmove(10 * SECOND).0, "d4");
    // Back to square Ataxx: the engine's own loop answers.
    engine.send("setoption name UAI_Variant value ataxx");
    engine.send("position startpos");
    engine.send("go depth 2");
    let mv = engine.bestmove(10 * SECOND).0;
    let square = GameKind::Ataxx.start(&Default::default()).unwrap();
    assert!(square.legal_moves().contains(&mv), "{mv}");
    engine.quit();
}
