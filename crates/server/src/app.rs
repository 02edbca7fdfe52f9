//! The services a door may call ([`App`]), built over one database by [`App::open`]. Nothing
//! here names a door: the doors, the cluster's listener and the workers are started by
//! [`crate::server`].

use std::sync::Arc;

use crate::cluster;
use crate::domain::accounts::{Accounts, RateLimits};
use crate::domain::admin::Admin;
use crate::domain::analysis::{Analyses, LiveAnalyses, LiveOptions, Options as AnalysisOptions};
use crate::domain::bots;
use crate::domain::clock::Clock;
use crate::domain::explorer::Explorer;
use crate::domain::health::Health;
use crate::domain::leader::Leader;
use crate::domain::listings::Listings;
use crate::domain::messages::Messages;
use crate::domain::moderation::Moderation;
use crate::domain::online::Online;
use crate::domain::outbox::Outbox;
use crate::domain::profiles::Profiles;
use crate::domain::standings::Standings;
use crate::domain::tv::Tv;
use crate::domain::{games::Games, seeks::Seeks, tournaments::Tournaments};
use crate::error::{Error, Result};
use crate::events::{Hub, Publisher};
use crate::store::{self, Durability, Storage};

/// What the services are built from: the database and the domain's settings.
#[derive(Clone, Debug)]
pub struct Options {
    /// SQLite file path or database URL.
    pub db: String,
    /// How durable a commit is before the server answers (SQLite).
    pub sync: Durability,
    /// Let `clock advance <seconds>` move the server's clock (tests of deadlines).
    pub test_clock: bool,
    pub rate_limits: RateLimits,
    /// The server's admins: moderators, who may make others moderators.
    pub admins: Vec<String>,
    /// Admins must have a second factor on to use admin powers.
    pub admin_2fa: bool,
    /// The computer analysis of finished games: workers, budget, lease.
    pub analysis: AnalysisOptions,
    /// The analysis board's live searches: how many at once, how long each.
    pub live_analysis: LiveOptions,
    /// Where the domain queues mail; None when the server sends none.
    pub outbox: Option<Outbox>,
}

/// Everything a door needs. The database itself is not among it: the services hold it.
#[derive(Clone)]
pub struct App {
    storage: Storage,
    pub accounts: Accounts,
    pub games: Games,
    pub seeks: Seeks,
    pub tournaments: Tournaments,
    pub clock: Arc<Clock>,
    pub hub: Hub,
    /// The inbox, the outbox and the account rules that mail (refused when the server sends
    /// none).
    pub messages: Messages,
    /// Whether this node runs the singletons (bots, deadline sweeper).
    pub leader: Leader,
    pub moderation: Moderation,
    /// The server admins' acts: bans, closed accounts, cheaters, aborted games, the log.
    pub admin: Admin,
    /// The computer analysis of finished games.
    pub analyses: Analyses,
    /// The analysis board's live searches.
    pub live: LiveAnalyses,
    /// The opening explorer over the finished games.
    pub explorer: Explorer,
    /// Who is online, as every node sees it.
    pub online: Online,
    /// Whether this node can serve, and the gauges read from the database.
    pub health: Health,
    /// The leaderboards and standings.
    pub standings: Standings,
    /// Players as the API shows them.
    pub profiles: Profiles,
    /// The listings of boards (`games`, `history`, `list`).
    pub listings: Listings,
    /// The featured games in play (the front page, TV).
    pub tv: Tv,
}

impl App {
    /// Whether several nodes share the database (PostgreSQL).
    pub(crate) fn is_shared(&self) -> bool {
        self.storage.is_shared()
    }

    /// What the cluster's listener feeds and reads.
    pub(crate) fn cluster_node(&self) -> cluster::Node {
        cluster::Node {
            storage: self.storage.clone(),
            games: self.games.clone(),
            hub: self.hub.clone(),
            clock: self.clock.clone(),
        }
    }

    /// Creates the computer players' accounts and starts them answering (while this node
    /// leads).
    pub(crate) async fn start_bots(&self) -> Result<()> {
        bots::start(
            &self.accounts,
            &self.games,
            &self.storage,
            &self.hub,
            &self.leader,
        )
        .await
    }

    /// Closes the database, once the doors and workers have stopped.
    pub(crate) async fn close(&self) {
        self.storage.close().await;
    }

    /// Opens the database (applying migrations) and builds the services; on a database several
    /// nodes share, this node campaigns to lead.
    pub async fn open(options: &Options) -> Result<App> {
        let url = store::database_url(&options.db).map_err(Error::Config)?;
        let storage = Storage::open(&url, options.sync).await?;
        let clock = Arc::new(if options.test_clock {
            Clock::adjustable()
        } else {
            Clock::system()
        });
        let hub = Hub::default();
        let publisher = match storage.is_shared() {
            true => Publisher::Notices(hub.clone()),
            false => Publisher::Local(hub.clone()),
        };
        let games = Games::new(storage.clone(), clock.clone(), publisher.clone());
        let moderation = Moderation::new(storage.clone(), clock.clone(), options.admins.clone());
        let analyses = Analyses::new(
            storage.clone(),
            clock.clone(),
            publisher.clone(),
            options.analysis.clone(),
        );
        let accounts = Accounts::new(
            storage.clone(),
            clock.clone(),
            options.rate_limits,
            publisher.clone(),
        );
        let seeks = Seeks::new(
            storage.clone(),
            games.clone(),
            clock.clone(),
            publisher.clone(),
        );
        let admin = Admin::new(
            storage.clone(),
            clock.clone(),
            accounts.clone(),
            games.clone(),
            seeks.clone(),
            options.admins.clone(),
            options.admin_2fa,
        );
        let standings = Standings::new(storage.clone(), clock.clone());
        let messages = Messages::new(storage.clone(), clock.clone(), options.outbox.clone());
        let leader = match storage.is_shared() {
            true => cluster::elect(&storage),
            false => Leader::always(),
        };
        Ok(App {
            health: Health::new(storage.clone(), hub.clone(), leader.clone()),
            profiles: Profiles::new(storage.clone(), standings.clone()),
            standings,
            listings: Listings::new(storage.clone(), games.clone()),
            tv: Tv::new(storage.clone(), games.clone()),
            analyses,
            live: LiveAnalyses::new(storage.clone(), options.live_analysis.clone()),
            explorer: Explorer::new(storage.clone()),
            online: Online::new(storage.clone(), clock.clone()),
            admin,
            leader,
            accounts,
            seeks,
            tournaments: Tournaments::new(storage.clone(), games.clone(), clock.clone(), publisher),
            games,
            storage,
            clock,
            hub,
            messages,
            moderation,
        })
    }
}
