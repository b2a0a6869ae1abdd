//! The server ([`Web`]): bound to an address (127.0.0.1 by default), answering each
//! request on its own thread, until a stop flag is set; then it stops its event streams,
//! ends the games being played (each is saved, lost by the person who left) and returns.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use fow_variants::RuleSet;

use crate::play::Sessions;
use crate::roots::Roots;
use crate::routes::App;

/// The default address: this machine only, a port chosen for fow.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8023";

/// How `fow web` is asked to serve.
#[derive(Clone, Debug)]
pub struct WebOptions {
    /// The results roots (default `results/`).
    pub roots: Vec<PathBuf>,
    /// `ADDR:PORT` to listen on (port 0: any free port).
    pub listen: String,
    /// `--play SPEC`: the bot the play page offers.
    pub play: Option<String>,
    /// The rules of games played here.
    pub rules: RuleSet,
}

/// A bound server, not yet answering.
pub struct Web {
    server: tiny_http::Server,
    app: Arc<App>,
    url: String,
}

impl Web {
    /// Binds the address and checks the roots (an error says which and why).
    pub fn bind(opts: WebOptions) -> Result<Web, String> {
        let roots = Roots::new(&opts.roots)?;
        if let Some(spec) = &opts.play {
            spec.parse::<fow_players::PlayerSpec>()
                .map_err(|e| format!("--play {spec}: {e}"))?;
        }
        let server = tiny_http::Server::http(&opts.listen)
            .map_err(|e| format!("--listen {}: {e}", opts.listen))?;
        let addr = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| format!("--listen {}: not an IP address", opts.listen))?;
        let port = addr.port();
        let mut hosts = vec![format!("{addr}"), format!("localhost:{port}")];
        if addr.ip().is_unspecified() || addr.ip().is_loopback() {
            hosts.push(format!("127.0.0.1:{port}"));
            hosts.push(format!("[::1]:{port}"));
        }
        let url = if addr.ip().is_unspecified() {
            format!("http://127.0.0.1:{port}/")
        } else {
            format!("http://{addr}/")
        };
        let play_area = opts.roots.first().cloned().unwrap_or_default().join("play");
        let app = Arc::new(App {
            roots,
            sessions: Sessions::default(),
            beliefs: Default::default(),
            run_pages: Default::default(),
            play: opts.play,
            play_area,
            rules: opts.rules,
            stop: Arc::new(AtomicBool::new(false)),
            hosts,
        });
        Ok(Web { server, app, url })
    }

    /// The address to open in a browser (`http://127.0.0.1:8023/`).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Answers requests until `stop` is set, then stops as the module says.
    pub fn serve(self, stop: &AtomicBool) {
        while !stop.load(Ordering::SeqCst) {
            match self.server.recv_timeout(Duration::from_millis(100)) {
                Ok(Some(request)) => {
                    let app = self.app.clone();
                    std::thread::spawn(move || app.handle(request));
                }
                Ok(None) => {}
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        }
        self.app.stop.store(true, Ordering::SeqCst);
        self.app.sessions.stop_all();
    }
}
