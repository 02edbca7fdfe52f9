//! `--analyses N`: before the timed run, N games of [`PLIES`] random legal moves are played and
//! resigned, and each is sent for analysis, so that the server's analysis worker searches while
//! the load is played; after the run, how far the jobs got and when each was done.

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use ataxx::{Move, Position};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use serde_json::{json, Value};

use super::post;

/// The plies of each analysed game: the length issue #33 times.
pub const PLIES: usize = 100;

/// The games sent for analysis, and when.
pub struct Queued {
    boards: Vec<i64>,
    asked: Instant,
}

fn get(agent: &ureq::Agent, url: &str) -> anyhow::Result<Value> {
    let mut response = agent.get(url).call()?;
    let text = response.body_mut().read_to_string()?;
    if !response.status().is_success() {
        bail!("{url}: {} {text}", response.status());
    }
    Ok(serde_json::from_str(&text)?)
}

/// Plays `count` games between `names[0]` (x) and `names[1]` (o), each [`PLIES`] plies (fewer
/// if it ends first) then resigned by the side to move, and asks for each one's analysis.
pub fn prepare(
    agent: &ureq::Agent,
    base: &str,
    names: &[String],
    tokens: &[String],
    count: usize,
) -> anyhow::Result<Queued> {
    let mut boards = vec![];
    for g in 0..count {
        let body = json!({"opponent": names[1], "color": "x"});
        let game = post(agent, &format!("{base}/api/games"), Some(&tokens[0]), body)?;
        let board = game["board"].as_i64().context("board")?;
        let url = format!("{base}/api/games/{board}");
        post(agent, &format!("{url}/accept"), Some(&tokens[1]), json!({}))?;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1_000 + g as u64);
        let mut pos = Position::startpos();
        let mut plies = 0;
        let mover = |pos: &Position| match pos.turn() {
            ataxx::Color::X => &tokens[0],
            ataxx::Color::O => &tokens[1],
        };
        while plies < PLIES && !pos.is_game_over() {
            let moves = pos.legal_moves();
            let mv = *moves.as_slice().choose(&mut rng).expect("a legal move");
            let body = json!({"move": mv.to_string()});
            post(agent, &format!("{url}/move"), Some(mover(&pos)), body)?;
            pos.play_unchecked(mv);
            plies += 1;
            // The server passes for a side that cannot move.
            while !pos.is_game_over() && pos.must_pass() {
                pos.play_unchecked(Move::Pass);
                plies += 1;
            }
        }
        if !pos.is_game_over() {
            let body = json!({"move": "resign"});
            post(agent, &format!("{url}/move"), Some(mover(&pos)), body)?;
        }
        boards.push(board);
    }
    let asked = Instant::now();
    for board in &boards {
        let url = format!("{base}/api/games/{board}/analysis");
        post(agent, &url, Some(&tokens[0]), json!({}))?;
    }
    Ok(Queued { boards, asked })
}

/// Positions analysed so far, over every job, and the positions in all.
fn progress(agent: &ureq::Agent, base: &str, boards: &[i64]) -> anyhow::Result<(i64, i64)> {
    let mut sum = (0, 0);
    for board in boards {
        let report = get(agent, &format!("{base}/api/games/{board}/analysis"))?;
        sum.0 += report["progress"]["done"].as_i64().unwrap_or(0);
        sum.1 += report["progress"]["total"].as_i64().unwrap_or(0);
    }
    Ok(sum)
}

/// The jobs being watched: a thread asks for each one's state every [`POLL`] (ten light reads
/// a second beside the load) and notes when it is done.
pub struct Watch {
    boards: Vec<i64>,
    asked: Instant,
    thread: std::thread::JoinHandle<Vec<Option<Duration>>>,
}

const POLL: Duration = Duration::from_millis(100);

impl Queued {
    /// Watches the jobs until each is done, or for at most `wait`.
    pub fn watch(self, agent: &ureq::Agent, base: &str, wait: Duration) -> Watch {
        let (agent, base, boards) = (agent.clone(), base.to_string(), self.boards.clone());
        let asked = self.asked;
        let thread = std::thread::spawn(move || {
            let mut done: Vec<Option<Duration>> = vec![None; boards.len()];
            while done.iter().any(Option::is_none) && asked.elapsed() < wait {
                for (board, at) in boards.iter().zip(&mut done) {
                    let url = format!("{base}/api/games/{board}/analysis");
                    if at.is_none() && get(&agent, &url).is_ok_and(|r| r["status"] == "done") {
                        *at = Some(asked.elapsed());
                    }
                }
                std::thread::sleep(POLL);
            }
            done
        });
        Watch {
            boards: self.boards,
            asked,
            thread,
        }
    }
}

impl Watch {
    /// Prints how far the analyses got by the end of the run, then waits for the watcher and
    /// prints when each job was done, counted from its request.
    pub fn report(self, agent: &ureq::Agent, base: &str) -> anyhow::Result<()> {
        let (done, total) = progress(agent, base, &self.boards)?;
        println!(
            "analyses         {} games of {PLIES} plies: {done} of {total} positions searched in {:.1} s",
            self.boards.len(),
            self.asked.elapsed().as_secs_f64()
        );
        let finished = self.thread.join().expect("the analysis watcher");
        let times: Vec<String> = finished
            .iter()
            .map(|at| at.map_or("not done".into(), |d| format!("{:.1} s", d.as_secs_f64())))
            .collect();
        println!("analysis done    {} after its request", times.join(", "));
        Ok(())
    }
}
