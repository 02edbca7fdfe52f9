//! Analysis as jobs in the database: asked for once per finished board, taken by a worker of any
//! node under a lease, each position stored as it is analysed.
//!
//! Workers are OS threads of their own (`--analysis-workers`, default 1) at a lower scheduling
//! priority than the server's (nice 10), so that a search never holds a thread of the async
//! runtime and the game loop is served first when cores are short. A worker renews its lease
//! with every position it stores, in the same transaction, and stops as soon as a renewal
//! fails: a node that died leaves a lease that passes, another worker takes the job and goes on
//! from the last stored position, and no position or finish is written twice.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use games::Seat;
use tokio::runtime::Handle;
use tokio::sync::{watch, Notify};

use super::judge;
use super::lower_priority;
use super::search::Searcher;
use crate::domain::clock::Clock;
use crate::domain::games::replay;
use crate::domain::publish;
use crate::error::{Error, Result};
use crate::events::Publisher;
use crate::model::{
    AnalysedPosition, AnalysisJob, AnalysisReport, Event, EventKind, GameView, JobStatus, Status,
};
use crate::store::{self, Storage, WriteTx};

/// How the analysis runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Worker threads of this node (0: this node analyses nothing; others may).
    pub workers: usize,
    /// Search nodes per position.
    pub nodes: u64,
    /// How long a job stays its worker's without news from it.
    pub lease: Duration,
    /// How often an idle worker looks for a job another node queued (on a database several
    /// nodes share; a lone node's workers wait for a job queued here or a lease to pass, and
    /// so send the database nothing while idle).
    pub poll: Duration,
}

/// Analyses one requester may have waiting (queued or running): each costs seconds of a
/// worker, and 600 were queued in seconds (issue #50). Those asked for without a userid share
/// one allowance.
pub const JOBS_WAITING_PER_REQUESTER: i64 = 10;

impl Default for Options {
    fn default() -> Options {
        Options {
            workers: 1,
            nodes: 200_000,
            lease: Duration::from_secs(30),
            poll: Duration::from_secs(1),
        }
    }
}

/// The analysis service.
#[derive(Clone)]
pub struct Analyses {
    /// Also read by the position analysis beside the jobs (`Analyses::best_move`).
    pub(super) storage: Storage,
    clock: Arc<Clock>,
    publisher: Publisher,
    options: Options,
    /// Wakes this node's idle workers when a job is queued here.
    queued: Arc<Notify>,
}

/// A game and where its analysis stands.
struct Loaded {
    view: GameView,
    job: Option<AnalysisJob>,
    positions: Vec<AnalysedPosition>,
}

impl Analyses {
    pub fn new(
        storage: Storage,
        clock: Arc<Clock>,
        publisher: Publisher,
        options: Options,
    ) -> Analyses {
        Analyses {
            storage,
            clock,
            publisher,
            options,
            queued: Arc::new(Notify::new()),
        }
    }

    async fn load(&self, board: i64) -> Result<Loaded> {
        let mut conn = self.storage.read().await?;
        let game = store::game(&mut conn, board)
            .await?
            .ok_or(Error::UnknownBoard(board))?;
        let mut moves = store::moves(&mut conn, board).await?;
        replay(game.kind(), &game.start_fen, &mut moves);
        let job = store::analysis_job(&mut conn, board).await?;
        let positions = match job {
            Some(_) => store::analysed_positions(&mut conn, board).await?,
            None => vec![],
        };
        let view = GameView {
            summary: game.summary(self.clock.now_ms()),
            moves,
            chat: vec![],
            subscribers: vec![],
        };
        Ok(Loaded {
            view,
            job,
            positions,
        })
    }

    /// A board's analysis as far as it has come; None when nobody asked for it.
    pub async fn report(&self, board: i64) -> Result<Option<AnalysisReport>> {
        let loaded = self.load(board).await?;
        Ok(loaded
            .job
            .map(|job| judge::report(&loaded.view, &job, &loaded.positions)))
    }

    /// Asks for a board's analysis for `user` (None: someone unnamed, e.g. a command without
    /// a password): its players may ask, anyone for a rated game, and only once the game is
    /// finished (no engine output about a game in play, issue #32). Answers the report and
    /// whether this call queued it (false: it was there already).
    pub async fn request(&self, board: i64, user: Option<&str>) -> Result<(AnalysisReport, bool)> {
        let loaded = self.load(board).await?;
        let game = &loaded.view.summary;
        if let Some(job) = &loaded.job {
            return Ok((judge::report(&loaded.view, job, &loaded.positions), false));
        }
        match game.status {
            Status::Finished => {}
            status if status.is_open() => return Err(Error::AnalysisOfGameInPlay),
            status => {
                return Err(Error::Command(format!(
                    "board {board} is {status}: only a finished game is analysed"
                )))
            }
        }
        let player = user.is_some_and(|user| game.seats.iter().any(|s| s.name == user));
        if !game.rated && !player {
            return Err(match user {
                Some(user) => Error::NotAPlayer {
                    board,
                    user: user.to_string(),
                },
                None => Error::Command(format!(
                    "board {board} is unrated: only its players may ask for its analysis, \
                     with their userid and password"
                )),
            });
        }
        let job = AnalysisJob {
            board,
            requested_by: user.unwrap_or_default().to_string(),
            requested_ms: self.clock.now_ms(),
            status: JobStatus::Queued,
            positions: loaded.view.moves.len() as i64 + 1,
        };
        let mut tx = self.storage.write().await?;
        let waiting = store::analysis_jobs_waiting_for(&mut tx, &job.requested_by).await?;
        if waiting >= JOBS_WAITING_PER_REQUESTER {
            return Err(Error::Command(format!(
                "{} analyses asked for {} are waiting already: ask again once they are done",
                waiting,
                match user {
                    Some(user) => format!("by {user}"),
                    None => "without a userid".to_string(),
                }
            )));
        }
        let queued = store::queue_analysis(&mut tx, &job).await?;
        self.announce(tx, board, JobStatus::Queued, 0, job.positions)
            .await?;
        if queued {
            // One worker wakes, or the next to wait finds the permit: a job queued while every
            // worker was busy is taken when one asks for the next.
            self.queued.notify_one();
        }
        let report = judge::report(&loaded.view, &job, &[]);
        Ok((report, queued))
    }

    /// Commits `tx` with the event that says where the board's analysis stands.
    async fn announce(
        &self,
        mut tx: WriteTx,
        board: i64,
        status: JobStatus,
        done: i64,
        total: i64,
    ) -> Result<()> {
        let now = self.clock.now_ms();
        let game = store::game(&mut tx, board)
            .await?
            .ok_or(Error::UnknownBoard(board))?;
        let kind = EventKind::Analysis {
            status,
            done,
            total,
        };
        let event = Event::new(kind, game.summary(now));
        publish::commit_events(&self.publisher, tx, vec![event], now).await
    }

    /// Starts this node's workers; they stop when `stopped` turns true.
    pub fn start_workers(
        &self,
        stopped: watch::Receiver<bool>,
    ) -> Vec<std::thread::JoinHandle<()>> {
        let node: u64 = rand::random();
        (0..self.options.workers)
            .map(|index| {
                let worker = Worker {
                    analyses: self.clone(),
                    holder: format!("{node:016x}-{index}"),
                    handle: Handle::current(),
                    stopped: stopped.clone(),
                    stop: Arc::new(AtomicBool::new(false)),
                };
                std::thread::Builder::new()
                    .name(format!("analysis-{index}"))
                    .spawn(move || worker.run())
                    .expect("an analysis worker thread starts")
            })
            .collect()
    }
}

/// One worker thread.
struct Worker {
    analyses: Analyses,
    /// This worker's name in the leases: unique per process start.
    holder: String,
    handle: Handle,
    stopped: watch::Receiver<bool>,
    /// Set when the server stops, to end a search early.
    stop: Arc<AtomicBool>,
}

impl Worker {
    fn run(mut self) {
        lower_priority();
        let mut searcher = Searcher::new(self.analyses.options.nodes);
        let stop = self.stop.clone();
        let mut watching = self.stopped.clone();
        self.handle.spawn(async move {
            let _ = watching.wait_for(|stopped| *stopped).await;
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        while !*self.stopped.borrow() {
            match self.handle.block_on(self.take()) {
                Ok(Some(board)) => {
                    searcher.clear();
                    if let Err(err) = self.analyse(board, &mut searcher) {
                        tracing::warn!(board, %err, "analysis");
                    }
                }
                Ok(None) => self.idle(),
                Err(err) => {
                    tracing::warn!(%err, "taking an analysis job");
                    self.pause(self.analyses.options.poll);
                }
            }
        }
    }

    /// Waits for a job queued on this node, the end, and the next look at the queue: after
    /// the poll interval where other nodes share the database, else when the first lease of a
    /// running job (one left by a worker that died) passes.
    fn idle(&mut self) {
        let analyses = &self.analyses;
        let wait = match analyses.storage.is_shared() {
            true => Some(analyses.options.poll),
            false => {
                let lease_end = self.handle.block_on(async {
                    let mut conn = analyses.storage.read().await?;
                    store::first_lease_end(&mut conn).await
                });
                match lease_end {
                    Ok(Some(until_ms)) => Some(Duration::from_millis(
                        (until_ms - analyses.clock.now_ms()).clamp(1, i64::MAX) as u64,
                    )),
                    Ok(None) => None,
                    Err(_) => Some(analyses.options.poll),
                }
            }
        };
        self.pause(wait.unwrap_or(Duration::MAX));
    }

    /// Waits `wait` at most, less if a job is queued on this node or the server stops.
    fn pause(&mut self, wait: Duration) {
        let queued = self.analyses.queued.clone();
        let stopped = &mut self.stopped;
        self.handle.block_on(async {
            let sleep = async {
                match tokio::time::Instant::now().checked_add(wait) {
                    Some(until) => tokio::time::sleep_until(until).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = sleep => {}
                _ = queued.notified() => {}
                _ = stopped.changed() => {}
            }
        });
    }

    fn lease_until(&self) -> i64 {
        self.analyses.clock.now_ms() + self.analyses.options.lease.as_millis() as i64
    }

    async fn take(&self) -> Result<Option<i64>> {
        let mut tx = self.analyses.storage.write().await?;
        let now = self.analyses.clock.now_ms();
        let taken = store::take_analysis(&mut tx, &self.holder, now, self.lease_until()).await?;
        tx.commit().await?;
        Ok(taken)
    }

    /// Analyses the positions of `board` not stored yet, then finishes the job; stops early
    /// when the lease is lost or the server stops.
    fn analyse(&self, board: i64, searcher: &mut Searcher) -> Result<()> {
        let loaded = self.handle.block_on(self.analyses.load(board))?;
        let view = &loaded.view;
        let kind: games::GameKind = view
            .summary
            .game
            .parse()
            .expect("stored boards name a known game");
        let total = view.moves.len() as i64 + 1;
        let mut pos = kind
            .parse_position(&view.summary.start_fen)
            .expect("stored positions are valid FEN");
        let mut mover = None;
        for ply in 0..total {
            if ply > 0 {
                let row = &view.moves[ply as usize - 1];
                pos.play(&row.mv).expect("stored moves replay");
                mover = Some(Seat(row.seat));
            }
            if ply < loaded.positions.len() as i64 {
                continue;
            }
            if *self.stopped.borrow() {
                return self.handle.block_on(self.release(board));
            }
            let analysed = searcher.position(pos.as_ref(), mover, ply, &self.stop);
            if *self.stopped.borrow() {
                return self.handle.block_on(self.release(board));
            }
            if !self.handle.block_on(self.store(board, &analysed, total))? {
                return Ok(());
            }
        }
        self.handle.block_on(self.finish(board, total))
    }

    /// Stores an analysed position if the lease is still this worker's, and says how far the
    /// analysis has come; false when the lease was lost.
    async fn store(&self, board: i64, analysed: &AnalysedPosition, total: i64) -> Result<bool> {
        let mut tx = self.analyses.storage.write().await?;
        if !store::renew_analysis_lease(&mut tx, board, &self.holder, self.lease_until()).await? {
            tracing::info!(board, "analysis lease lost: another worker has the job");
            return Ok(false);
        }
        store::insert_analysed_position(&mut tx, board, analysed).await?;
        let done = analysed.ply + 1;
        self.analyses
            .announce(tx, board, JobStatus::Running, done, total)
            .await?;
        Ok(true)
    }

    async fn release(&self, board: i64) -> Result<()> {
        let mut tx = self.analyses.storage.write().await?;
        store::release_analysis_lease(&mut tx, board, &self.holder).await?;
        tx.commit().await
    }

    async fn finish(&self, board: i64, total: i64) -> Result<()> {
        let mut tx = self.analyses.storage.write().await?;
        let now = self.analyses.clock.now_ms();
        if store::finish_analysis(&mut tx, board, &self.holder, now).await? {
            self.analyses
                .announce(tx, board, JobStatus::Done, total, total)
                .await?;
        }
        Ok(())
    }
}
