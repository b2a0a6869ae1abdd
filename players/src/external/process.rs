//! [`ExternalPlayer`]: a bot running as a separate program, spoken to over its
//! stdin/stdout with the fow bot protocol.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, ChildStdout, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::thread;
use std::time::{Duration, Instant};

use fow_variants::{Color, Move, Observation};

use super::command::find_program;
use super::guard;
use super::launch::Launch;
use super::protocol::{BudgetMsg, FromBot, OptionInfo, ToBot, PROTOCOL_VERSION};
use super::sandbox::Sandbox;
use crate::player::{Budget, GameStart, Player, PlayerError, PlayerErrorKind};
use crate::spec::{PlayerSpec, SpecError};

/// Default wait for the program's `hello` and `ready`, in milliseconds.
pub const DEFAULT_STARTUP_MS: u64 = 10_000;
/// Default wait for one move, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;
/// How long a program may take to exit after `quit` before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(1000);
/// The longest line read from a program; a longer one is a protocol error.
pub const MAX_LINE: usize = 1 << 20;
/// The most stderr saved per program and game; the rest is read and dropped.
pub const MAX_LOG: u64 = 4 << 20;
/// How long the end of a program waits for its stderr log to be written, in case a
/// process that left the program's group still holds the stream.
const LOG_WAIT: Duration = Duration::from_secs(5);

/// The spec keys the arena reads itself (besides `env.NAME`); every other key is an
/// option for the program.
pub const EXEC_KEYS: [&str; 6] = ["cmd", "name", "timeout", "startup", "sandbox", "bind"];

/// How to run one external bot, read from an `exec:cmd=...` spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecSettings {
    /// The program, its arguments, environment and sandbox.
    pub launch: Launch,
    /// The name in messages (`name=`, else the command line).
    pub name: String,
    /// Wait for `hello` and `ready` after starting the program.
    pub startup: Duration,
    /// Wait for one move.
    pub timeout: Duration,
    /// The options passed in `new_game`.
    pub options: BTreeMap<String, String>,
}

impl ExecSettings {
    /// Reads `exec:cmd=<command line>[,name=N][,timeout=MS][,startup=MS][,sandbox=bwrap]
    /// [,bind=PATH...][,env.NAME=VALUE...][,key=value...]`, checking that the program
    /// exists and can be executed.
    pub fn from_spec(spec: &PlayerSpec) -> Result<ExecSettings, SpecError> {
        let bad = |message: String| SpecError::BadParam {
            bot: spec.name.clone(),
            message,
        };
        let launch = Launch::from_spec(spec, "command line", find_program)?;
        let ms = |key: &str, default: u64| -> Result<Duration, SpecError> {
            match spec.parsed(key, default)? {
                0 => Err(bad(format!("{key} must be at least 1 ms"))),
                v => Ok(Duration::from_millis(v)),
            }
        };
        let mut options = BTreeMap::new();
        for (k, v) in &spec.params {
            if !EXEC_KEYS.contains(&k.as_str()) && !Launch::is_key(k) {
                options.insert(k.clone(), v.clone());
            }
        }
        Ok(ExecSettings {
            name: spec
                .param("name")
                .or(spec.param("cmd"))
                .unwrap_or_default()
                .to_string(),
            launch,
            startup: ms("startup", DEFAULT_STARTUP_MS)?,
            timeout: ms("timeout", DEFAULT_TIMEOUT_MS)?,
            options,
        })
    }
}

/// A line from the program, or why there is none.
pub(crate) enum Line {
    Text(String),
    /// A line that is not UTF-8 (the fow protocol's lines are), read with replacement
    /// characters.
    NotUtf8(String),
    TooLong,
    Closed,
    Failed(String),
}

/// A running program: its process and the threads that carry its pipes. Shared by the
/// fow-protocol player ([`ExternalPlayer`]) and the UCI engine player.
///
/// The program runs in a process group of its own, and [`Process::end`] ends the whole
/// group: whatever the program started (children, grandchildren) dies with it, at the end
/// of its game and on every fault. On Linux fow is also a child subreaper, so that the
/// group's orphans become fow's children and are reaped before `end` returns: no process
/// of a program outlives its game. A program that leaves its group on purpose (`setsid`)
/// escapes this; `sandbox=bwrap` closes that gap (its processes live in a PID namespace
/// that ends with the program).
pub(crate) struct Process {
    child: Child,
    /// Lines to write to its stdin (a thread writes them, so a program that does not
    /// read never blocks the arena). Dropping it closes the program's stdin.
    to_bot: Option<Sender<Vec<u8>>>,
    from_bot: Receiver<Line>,
    /// Hears from the thread that keeps the program's stderr once it has written the
    /// log (when the stream closes).
    log: Option<Receiver<()>>,
    /// The program's `HOME` and `TMPDIR` outside the sandbox, removed when it ends.
    _scratch: Option<tempfile::TempDir>,
}

impl Process {
    /// Starts the program of `launch` without a shell (in the sandbox it names,
    /// showing it no folder of `hidden`), under a guard that ends it when fow ends (see
    /// `guard`), in a process group of its own, with a minimal environment and a scratch
    /// folder of its own as `HOME` and `TMPDIR` (see `launch`), no descriptor but its
    /// stdin, stdout and stderr, its stdin and stdout piped through threads, its stderr
    /// saved to `log` (at most [`MAX_LOG`] bytes; written when the program ends, so that
    /// no other program can read it while the game goes on) or dropped.
    pub(crate) fn spawn(
        launch: &Launch,
        hidden: &[PathBuf],
        log: Option<&Path>,
    ) -> std::io::Result<Process> {
        become_subreaper();
        let argv = launch.command(hidden).map_err(std::io::Error::other)?;
        let scratch = match launch.sandbox {
            Sandbox::None => Some(tempfile::Builder::new().prefix("fow-bot-").tempdir()?),
            Sandbox::Bwrap => None,
        };
        let home = scratch
            .as_ref()
            .map_or(Path::new("/tmp"), |s| s.path())
            .to_path_buf();
        let mut cmd = guard::command(&argv)?;
        cmd.env_clear()
            .envs(launch.environment(&home))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (to_bot, rx) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || {
            let mut stdin = stdin;
            for buf in rx {
                if stdin.write_all(&buf).is_err() {
                    break;
                }
            }
        });
        let (tx, from_bot) = mpsc::sync_channel(16);
        thread::spawn(move || read_lines(stdout, tx));
        let log = match (child.stderr.take(), log.map(Path::to_path_buf)) {
            (Some(stderr), Some(path)) => {
                let (done, log) = mpsc::channel();
                thread::spawn(move || {
                    save_log(stderr, &path);
                    let _ = done.send(());
                });
                Some(log)
            }
            _ => None,
        };
        Ok(Process {
            child,
            to_bot: Some(to_bot),
            from_bot,
            log,
            _scratch: scratch,
        })
    }

    /// [`Process::spawn`], its failure said as `cannot start 'PROGRAM': WHY`.
    pub(crate) fn start(
        launch: &Launch,
        hidden: &[PathBuf],
        log: Option<&Path>,
    ) -> Result<Process, String> {
        Process::spawn(launch, hidden, log)
            .map_err(|e| format!("cannot start '{}': {e}", launch.argv[0]))
    }

    /// The process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Queues `buf` for the program's stdin (a closed pipe shows up as the program's
    /// death on the next read).
    pub(crate) fn send(&self, buf: Vec<u8>) {
        if let Some(tx) = self.to_bot.as_ref() {
            let _ = tx.send(buf);
        }
    }

    /// The next line from the program by `deadline`; `None` when none came in time.
    pub(crate) fn next_line(&mut self, deadline: Instant) -> Option<Line> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.from_bot.recv_timeout(left) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Line::Closed),
        }
    }

    /// After its output closed: `exited (STATUS)` when the exit status shows up within
    /// 100 ms, else `closed its output`.
    pub(crate) fn how_it_ended(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(100);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(1)),
                _ => break None,
            }
        };
        status.map_or("closed its output".to_string(), |s| format!("exited ({s})"))
    }

    /// Ends the program and everything it started: with `quit`, sends it, closes its
    /// stdin and gives it [`QUIT_GRACE`] to exit; then kills its whole process group,
    /// reaps the program and the group's orphans, and waits for its log to be written.
    pub(crate) fn end(mut self, quit: Option<Vec<u8>>) {
        if let Some(quit) = quit {
            if let Some(tx) = self.to_bot.take() {
                let _ = tx.send(quit);
            }
            let until = Instant::now() + QUIT_GRACE;
            while Instant::now() < until && !self.exited() {
                thread::sleep(Duration::from_millis(1));
            }
        }
        self.to_bot = None;
        // The program is not reaped yet (at most a zombie), so its process group id
        // cannot have been reused: the signal reaches its group and nothing else.
        kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        reap_group(self.child.id());
        // The stream closes once every process holding it has ended: at once, unless
        // one left the group (then the log is written when it ends, if fow still runs).
        if let Some(log) = self.log.take() {
            let _ = log.recv_timeout(LOG_WAIT);
        }
    }

    /// Whether the program has exited, without reaping it (its pid, which is also its
    /// group's id, stays reserved until [`Process::end`] reaps it).
    #[cfg(target_os = "linux")]
    fn exited(&mut self) -> bool {
        let pid = self.child.id() as libc::id_t;
        // SAFETY: waitid writes only into `info`, a plain struct we own.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let r = libc::waitid(
                libc::P_PID,
                pid,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            r != 0 || info.si_pid() != 0
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)) | Err(_))
    }
}

/// Makes this process a child subreaper (Linux): orphans of its descendants become its
/// children instead of init's, so [`reap_group`] can wait for them. Done once.
fn become_subreaper() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes plain integers.
        ONCE.call_once(|| unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        });
    }
}

/// Sends SIGKILL to every process of the group `pgid`.
fn kill_group(pgid: u32) {
    #[cfg(unix)]
    // SAFETY: kill takes plain integers; a negative pid names a process group.
    unsafe {
        libc::kill(-(pgid as libc::pid_t), libc::SIGKILL);
    }
    #[cfg(not(unix))]
    let _ = pgid;
}

/// Waits for every child of this process still in the group `pgid` (the program's
/// orphans, killed by [`kill_group`], which became this process's children as it is a
/// subreaper) until none is left.
fn reap_group(pgid: u32) {
    #[cfg(unix)]
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes only into `status`.
        let r = unsafe { libc::waitpid(-(pgid as libc::pid_t), &mut status, 0) };
        if r > 0 {
            continue;
        }
        if r < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        break;
    }
    #[cfg(not(unix))]
    let _ = pgid;
}

/// A bot that runs as a separate program (the `exec` player spec).
///
/// The program is started in [`Player::start`] and ended in [`Player::finish`] (or when
/// the player is dropped): it gets `quit`, then [`QUIT_GRACE`] to exit, then it is
/// killed, and always reaped. No answer in time, a broken message, an illegal move or the
/// program's death lose the game with the reason recorded. The program's stderr goes to
/// the file named by [`Player::log_to`] (nowhere without one).
pub struct ExternalPlayer {
    settings: ExecSettings,
    log: Option<PathBuf>,
    /// Folders the program must never see (see [`Player::hide`]).
    hidden: Vec<PathBuf>,
    process: Option<Process>,
    /// A failure in `start` (which cannot fail) or in a turn, not yet taken by
    /// [`Player::take_error`]; while it is there, `choose` answers [`Move::NULL`].
    failed: Option<PlayerError>,
    /// The program misbehaved: kill it without waiting.
    broken: bool,
    /// The program's own name, from its `hello`.
    bot_name: Option<String>,
    /// Our colour in the current game.
    color: Option<Color>,
}

impl ExternalPlayer {
    /// A player for these settings; nothing starts before [`Player::start`].
    pub fn new(settings: ExecSettings) -> ExternalPlayer {
        ExternalPlayer {
            settings,
            log: None,
            hidden: Vec::new(),
            process: None,
            failed: None,
            broken: false,
            bot_name: None,
            color: None,
        }
    }

    /// A player for an `exec:cmd=...` spec.
    pub fn from_spec(spec: &PlayerSpec) -> Result<ExternalPlayer, SpecError> {
        Ok(ExternalPlayer::new(ExecSettings::from_spec(spec)?))
    }

    /// The process id of the running program, if one runs.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(Process::pid)
    }

    /// The name the program gave in its `hello`.
    pub fn bot_name(&self) -> Option<&str> {
        self.bot_name.as_deref()
    }

    fn error(&self, kind: PlayerErrorKind, what: String) -> PlayerError {
        PlayerError {
            kind,
            message: format!("{}: {what}", self.settings.name),
        }
    }

    fn spawn(&mut self) -> Result<(), PlayerError> {
        let process = Process::start(&self.settings.launch, &self.hidden, self.log.as_deref())
            .map_err(|m| self.error(PlayerErrorKind::Crash, m))?;
        self.process = Some(process);
        Ok(())
    }

    fn send(&mut self, msg: &ToBot) {
        if let Some(p) = self.process.as_ref() {
            let mut buf = serde_json::to_vec(msg).expect("messages serialize");
            buf.push(b'\n');
            p.send(buf);
        }
    }

    /// The next message, by `deadline`; `waiting` says for what, in errors.
    fn receive(&mut self, deadline: Instant, waiting: &str) -> Result<FromBot, PlayerError> {
        let Some(p) = self.process.as_mut() else {
            return Err(self.error(PlayerErrorKind::Other, "not started".into()));
        };
        loop {
            let Some(line) = p.next_line(deadline) else {
                let ms = self.limit_ms(waiting);
                return Err(self.error(
                    PlayerErrorKind::Timeout,
                    format!("no answer within {ms} ms (waiting for {waiting})"),
                ));
            };
            let text = match line {
                Line::Text(t) if t.trim().is_empty() => continue,
                Line::Text(t) => t,
                Line::TooLong => {
                    return Err(self.error(
                        PlayerErrorKind::Protocol,
                        format!("a line longer than {MAX_LINE} bytes while waiting for {waiting}"),
                    ))
                }
                Line::NotUtf8(_) => {
                    return Err(self.error(
                        PlayerErrorKind::Protocol,
                        format!("a line that is not UTF-8 while waiting for {waiting}"),
                    ))
                }
                Line::Failed(e) => {
                    return Err(
                        self.error(PlayerErrorKind::Crash, format!("reading its output: {e}"))
                    )
                }
                Line::Closed => {
                    let how = p.how_it_ended();
                    return Err(self.error(
                        PlayerErrorKind::Crash,
                        format!("the program {how} while we waited for {waiting}"),
                    ));
                }
            };
            return serde_json::from_str(&text).map_err(|e| {
                self.error(
                    PlayerErrorKind::Protocol,
                    format!(
                        "cannot read '{}' as {waiting}: {}",
                        shorten(&text),
                        fow_variants::printable(&e.to_string())
                    ),
                )
            });
        }
    }

    fn limit_ms(&self, waiting: &str) -> u128 {
        if waiting.starts_with("its move") {
            self.settings.timeout.as_millis()
        } else {
            self.settings.startup.as_millis()
        }
    }

    /// Starts the program and says hello: the options its `hello` declares (`None`: it
    /// takes any), each declaration checked, and the spec's options checked against them.
    fn greet(&mut self, deadline: Instant) -> Result<Option<Vec<OptionInfo>>, PlayerError> {
        self.spawn()?;
        self.send(&ToBot::Hello {
            protocol: PROTOCOL_VERSION,
        });
        match self.receive(deadline, "hello")? {
            FromBot::Hello {
                protocol,
                name,
                options,
            } => {
                if protocol != PROTOCOL_VERSION {
                    return Err(self.error(
                        PlayerErrorKind::Protocol,
                        format!("speaks protocol {protocol}, fow speaks {PROTOCOL_VERSION}"),
                    ));
                }
                self.bot_name = Some(name);
                if let Some(known) = &options {
                    for o in known {
                        o.check_declaration().map_err(|m| {
                            self.error(PlayerErrorKind::Protocol, format!("its hello: {m}"))
                        })?;
                    }
                    self.check_options(known)?;
                }
                Ok(options)
            }
            other => Err(self.unexpected("hello", &other)),
        }
    }

    /// Starts the program, says hello and the new game, waits for `ready`.
    fn begin(&mut self, game: &GameStart) -> Result<(), PlayerError> {
        let deadline = Instant::now() + self.settings.startup;
        self.greet(deadline)?;
        self.send(&ToBot::NewGame {
            color: color_name(game.color).into(),
            rules: game.rules,
            seed: game.seed,
            options: self.settings.options.clone(),
            start: Some(game.position.fen()),
        });
        match self.receive(deadline, "ready")? {
            FromBot::Ready => Ok(()),
            other => Err(self.unexpected("ready", &other)),
        }
    }

    /// Starts the program, reads the options its `hello` declares, checks the spec's
    /// options against them and ends it (see [`super::program_options`]).
    pub(crate) fn probe(&mut self) -> Result<Option<Vec<OptionInfo>>, PlayerError> {
        self.shutdown();
        self.broken = false;
        let deadline = Instant::now() + self.settings.startup;
        let options = self.greet(deadline);
        self.broken = options.is_err();
        self.shutdown();
        options
    }

    /// Checks each option of the spec against those the program declared: a name it does
    /// not list, or a value its declared type or range refuses, is an error.
    fn check_options(&self, known: &[OptionInfo]) -> Result<(), PlayerError> {
        for (k, v) in &self.settings.options {
            let Some(o) = known.iter().find(|o| &o.name == k) else {
                let names: Vec<&str> = known.iter().map(|o| o.name.as_str()).collect();
                return Err(self.error(
                    PlayerErrorKind::Other,
                    format!(
                        "the program takes no option '{k}' (it takes: {})",
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        }
                    ),
                ));
            };
            o.check_value(v)
                .map_err(|m| self.error(PlayerErrorKind::Other, m))?;
        }
        Ok(())
    }

    fn unexpected(&self, waiting: &str, got: &FromBot) -> PlayerError {
        if let FromBot::Error { message } = got {
            return self.error(
                PlayerErrorKind::Other,
                format!("the program reports an error: {message}"),
            );
        }
        let json = serde_json::to_string(got).unwrap_or_default();
        self.error(
            PlayerErrorKind::Protocol,
            format!("expected {waiting}, got {}", shorten(&json)),
        )
    }

    /// Ends the program: `quit` and a grace period unless it misbehaved, then kill and
    /// reap.
    fn shutdown(&mut self) {
        let Some(p) = self.process.take() else {
            return;
        };
        let quit = (!self.broken).then(|| {
            let mut buf = serde_json::to_vec(&ToBot::Quit).expect("messages serialize");
            buf.push(b'\n');
            buf
        });
        p.end(quit);
    }
}

impl super::Program for ExternalPlayer {
    fn failure(&mut self) -> &mut Option<PlayerError> {
        &mut self.failed
    }

    fn end_broken(&mut self) {
        self.broken = true;
        self.shutdown();
    }
}

impl Player for ExternalPlayer {
    fn start(&mut self, game: &GameStart) {
        self.shutdown();
        self.broken = false;
        self.color = Some(game.color);
        self.failed = self.begin(game).err();
        if self.failed.is_some() {
            self.broken = true;
        }
    }

    fn choose(&mut self, obs: &Observation, budget: &Budget) -> Move {
        super::answer(self, |p| p.turn(obs, budget))
    }

    fn take_error(&mut self) -> Option<PlayerError> {
        self.failed.take()
    }

    fn finish(&mut self, winner: Option<Color>, reason: &str) {
        if self.process.is_some() && !self.broken {
            let me = self.color_of_game();
            let (result, outcome) = match winner {
                None => ("1/2-1/2", "draw"),
                Some(w) => (
                    if w.is_white() { "1-0" } else { "0-1" },
                    if Some(w) == me { "win" } else { "loss" },
                ),
            };
            self.send(&ToBot::GameEnd {
                result: result.into(),
                outcome: outcome.into(),
                reason: reason.into(),
            });
        }
        self.shutdown();
    }

    fn log_to(&mut self, path: &Path) {
        self.log = Some(path.to_path_buf());
    }

    fn hide(&mut self, dir: &Path) {
        self.hidden.push(dir.to_path_buf());
    }
}

impl ExternalPlayer {
    fn color_of_game(&self) -> Option<Color> {
        self.color
    }

    /// One turn: the observation out, a move back.
    fn turn(&mut self, obs: &Observation, budget: &Budget) -> Result<Move, PlayerError> {
        if self.process.is_none() {
            return Err(self.error(PlayerErrorKind::Other, "asked to move before start".into()));
        }
        let deadline = Instant::now() + self.settings.timeout;
        self.send(&ToBot::Turn {
            ply: obs.ply(),
            view: obs.view().to_string(),
            previous: obs.previous().map(|v| v.to_string()),
            legal: obs.legal_moves().iter().map(|m| m.uci()).collect(),
            budget: BudgetMsg {
                nodes: budget.nodes,
                ms: budget.time.map(|t| t.as_millis() as u64),
                remaining_ms: budget.clock.map(|c| c.remaining.as_millis() as u64),
                increment_ms: budget.clock.map(|c| c.increment.as_millis() as u64),
            },
            timeout_ms: self.settings.timeout.as_millis() as u64,
        });
        let waiting = format!("its move at ply {}", obs.ply());
        let uci = match self.receive(deadline, &waiting)? {
            FromBot::Move { uci } => uci,
            other => return Err(self.unexpected("a move", &other)),
        };
        // A well-formed move outside the legal list goes back to the arena, which
        // records it as an illegal move.
        obs.read_answer(&uci).ok_or_else(|| {
            self.error(
                PlayerErrorKind::Protocol,
                format!("'{}' is not a UCI move", shorten(&uci)),
            )
        })
    }
}

impl Drop for ExternalPlayer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn color_name(c: Color) -> &'static str {
    if c.is_white() {
        "white"
    } else {
        "black"
    }
}

/// A bounded, printable excerpt of a program's text, for messages (control characters
/// escaped, see [`fow_variants::quote`]).
fn shorten(s: &str) -> String {
    fow_variants::quote(s)
}

/// Reads `stdout` line by line into `tx` until it closes, a line exceeds [`MAX_LINE`] or
/// nobody listens.
fn read_lines(stdout: ChildStdout, tx: SyncSender<Line>) {
    let mut r = BufReader::with_capacity(1 << 16, stdout);
    let mut line = Vec::new();
    loop {
        let avail = match r.fill_buf() {
            Ok([]) => {
                let _ = tx.send(Line::Closed);
                return;
            }
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = tx.send(Line::Failed(e.to_string()));
                return;
            }
        };
        match avail.iter().position(|&b| b == b'\n') {
            Some(i) => {
                line.extend_from_slice(&avail[..i]);
                r.consume(i + 1);
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                let text = match String::from_utf8(std::mem::take(&mut line)) {
                    Ok(t) => Line::Text(t),
                    Err(e) => Line::NotUtf8(String::from_utf8_lossy(e.as_bytes()).into_owned()),
                };
                if tx.send(text).is_err() {
                    return;
                }
            }
            None => {
                let n = avail.len();
                line.extend_from_slice(avail);
                r.consume(n);
            }
        }
        if line.len() > MAX_LINE {
            let _ = tx.send(Line::TooLong);
            return;
        }
    }
}

/// Keeps `stderr` in memory (at most [`MAX_LOG`] bytes, the rest read and dropped) and
/// writes it to `path` when the stream closes, if the program wrote anything. Kept in
/// memory so that the log of a game under way is nowhere another program could read it.
fn save_log(mut stderr: ChildStderr, path: &Path) {
    let mut buf = [0u8; 8192];
    let mut kept: Vec<u8> = Vec::new();
    let mut truncated = false;
    loop {
        let n = match stderr.read(&mut buf) {
            Ok(0) => break,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
            Ok(n) => n,
        };
        let room = (MAX_LOG as usize).saturating_sub(kept.len());
        kept.extend_from_slice(&buf[..n.min(room)]);
        truncated |= n > room;
    }
    if kept.is_empty() {
        return;
    }
    if truncated {
        kept.extend_from_slice(b"\n[fow: log truncated]\n");
    }
    if let Some(dir) = path.parent() {
        let _ = fs::create_dir_all(dir);
    }
    if let Ok(mut f) = File::create(path) {
        let _ = f.write_all(&kept);
    }
}
