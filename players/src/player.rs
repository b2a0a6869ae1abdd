//! The [`Player`] trait every bot implements, with its budget and error types.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use fow_variants::{Color, Move, Observation, Position, RuleSet};

/// How much a player may spend on one move. Bots that search spend nodes; `None` means
/// the bot's own default. Node budgets keep tournaments deterministic; time budgets do
/// not, and are documented as such where used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Search nodes for this move.
    pub nodes: Option<u64>,
    /// Wall time for this move.
    pub time: Option<Duration>,
    /// The mover's clock under a time control (`None`: no clock). A bot that thinks
    /// spends [`TimeLeft::allocation`] of it, and no node budget applies.
    pub clock: Option<TimeLeft>,
}

/// A side's clock before its move under a time control (Fischer: the increment is added
/// after each move made in time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLeft {
    /// Time left on the mover's clock; a move that takes longer loses on time.
    pub remaining: Duration,
    /// Time added to the clock after this move.
    pub increment: Duration,
}

impl TimeLeft {
    /// The thinking time of one move: a thirtieth of the time left plus the increment,
    /// never more than half the time left (so that a bot keeps a margin for the arena's
    /// bookkeeping and its own stopping).
    ///
    /// ```
    /// use fow_players::TimeLeft;
    /// use std::time::Duration;
    /// let ms = Duration::from_millis;
    /// let t = TimeLeft { remaining: ms(3000), increment: ms(100) };
    /// assert_eq!(t.allocation(), ms(200));
    /// let short = TimeLeft { remaining: ms(60), increment: ms(100) };
    /// assert_eq!(short.allocation(), ms(30));
    /// ```
    pub fn allocation(&self) -> Duration {
        (self.remaining / 30 + self.increment).min(self.remaining / 2)
    }
}

/// What went wrong inside a player, reported through [`Player::take_error`]. The arena
/// turns it into a lost game with the reason recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerError {
    /// The class of failure.
    pub kind: PlayerErrorKind,
    /// Details for the log.
    pub message: String,
}

/// Classes of player failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerErrorKind {
    /// No answer in time.
    Timeout,
    /// An answer that breaks the protocol.
    Protocol,
    /// The player's program or thread died.
    Crash,
    /// Anything else.
    Other,
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.kind, self.message)
    }
}

impl std::error::Error for PlayerError {}

/// What a player is told when a game begins: its colour, the rules, the seed for all its
/// randomness and the position the game starts from.
///
/// The start position is public knowledge in fow, like the standard start: both players
/// are told all of it (every piece, the side to move, castling rights, the en passant
/// square). From then on each player sees only its [`Observation`]s.
///
/// ```
/// use fow_players::{GameStart, Player, PlayerSpec};
/// use fow_variants::{Color, Position, RuleSet};
///
/// // The standard start.
/// let game = GameStart::new(Color::White, RuleSet::thesis(), 42);
/// assert_eq!(game.position, Position::startpos());
///
/// // A game from an opening book position, Black to move first.
/// let pos: Position = "r3k2r/ppp2ppp/2n5/3pp3/8/2N2N2/PPPP1PPP/R1B1K2R b KQkq - 0 7"
///     .parse()
///     .unwrap();
/// let game = GameStart::new(Color::White, RuleSet::thesis(), 42).with_position(pos.clone());
/// assert_eq!(game.position.turn(), Color::Black);
/// let mut bot = "PossibleBoardList".parse::<PlayerSpec>().unwrap().build().unwrap();
/// bot.start(&game);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GameStart {
    /// Our colour.
    pub color: Color,
    /// The rules of the game.
    pub rules: RuleSet,
    /// The seed for all our randomness in this game.
    pub seed: u64,
    /// The position the game starts from ([`Position::startpos`] unless the game was set
    /// up elsewhere, for example from an opening book). It is public, like the standard
    /// start: both players are told all of it. The side to move in it moves first, which
    /// may be Black.
    pub position: Position,
}

impl GameStart {
    /// A game from the standard start position.
    pub fn new(color: Color, rules: RuleSet, seed: u64) -> GameStart {
        GameStart {
            color,
            rules,
            seed,
            position: Position::startpos(),
        }
    }

    /// The same game, started from `position` instead.
    #[must_use]
    pub fn with_position(self, position: Position) -> GameStart {
        GameStart { position, ..self }
    }
}

/// A fog-of-war chess player.
///
/// A player is built fresh for every game (see [`crate::PlayerSpec`]), told its colour,
/// the rules, a seed and the start position ([`GameStart`]), then asked for a move each
/// turn. It receives only its [`Observation`], never the true position, and takes
/// randomness only from the seed.
///
/// ```
/// use fow_players::{Budget, GameStart, Player, PlayerSpec};
/// use fow_variants::{Color, Observation, Position, RuleSet};
///
/// let rules = RuleSet::thesis();
/// let mut bot = "CaptureLargest".parse::<PlayerSpec>().unwrap().build().unwrap();
/// bot.start(&GameStart::new(Color::White, rules, 42));
/// let obs = Observation::new(&Position::startpos(), &rules, 0, None);
/// let m = bot.choose(&obs, &Budget::default());
/// assert!(obs.is_legal(&m));
/// ```
///
/// A player that cannot answer (an external program that crashed or timed out, a bot
/// asked to move with no legal move) returns [`Move::NULL`], which is never legal, and
/// keeps the reason for [`Player::take_error`]:
///
/// ```
/// use fow_players::{Budget, GameStart, Player, PlayerError, PlayerErrorKind};
/// use fow_variants::{Move, Observation};
///
/// struct Quitter(Option<PlayerError>);
/// impl Player for Quitter {
///     fn start(&mut self, _: &GameStart) {}
///     fn choose(&mut self, _: &Observation, _: &Budget) -> Move {
///         self.0 = Some(PlayerError { kind: PlayerErrorKind::Other, message: "gave up".into() });
///         Move::NULL
///     }
///     fn take_error(&mut self) -> Option<PlayerError> {
///         self.0.take()
///     }
/// }
/// ```
pub trait Player: Send {
    /// A new game begins: our colour, the rules, the seed for all our randomness and the
    /// start position (public: a player that keeps a belief about the hidden board starts
    /// it from [`GameStart::position`]).
    fn start(&mut self, game: &GameStart);

    /// Our move, chosen from `obs` (which lists the legal moves). A player that cannot
    /// answer returns [`Move::NULL`] and reports why through [`Player::take_error`].
    ///
    /// The move comes back by value, not in a `Result`: a move is small enough to be
    /// returned in a register, and in the arena's game loop that is measurably faster
    /// than a `Result` returned through memory (results/bench/HISTORY.md).
    fn choose(&mut self, obs: &Observation, budget: &Budget) -> Move;

    /// Why the last [`Player::choose`] returned no legal move, if the player knows (taken:
    /// a second call returns `None`). The arena asks only when the move is not legal, and
    /// records the error's kind and message as the reason the game was lost; without an
    /// error the reason is an illegal move. A player keeps an error only for a turn it
    /// answered with no legal move (usually [`Move::NULL`]); bots that always answer keep
    /// the default.
    fn take_error(&mut self) -> Option<PlayerError> {
        None
    }

    /// Search nodes spent since `start` (0 for bots that do not search).
    fn nodes(&self) -> u64 {
        0
    }

    /// The game is over: the winner (`None` for a draw) and the reason as the arena
    /// records it (`king captured`, `timeout`, ...). Called once per game, also when a
    /// player failed; bots that keep no state across games ignore it.
    fn finish(&mut self, _winner: Option<Color>, _reason: &str) {}

    /// Where to save this player's diagnostic output for the coming game (an external
    /// program's stderr). Called before `start`, if at all; in-process bots ignore it.
    fn log_to(&mut self, _path: &Path) {}

    /// A folder this player must never see: the results folder of the run it plays in
    /// (its games, logs and secret key). Called before `start`, if at all, with
    /// [`Player::log_to`]; a program player in the sandbox is shown nothing of it (see
    /// [`crate::external::Sandbox`]); in-process bots ignore it.
    fn hide(&mut self, _dir: &Path) {}
}
