//! The small HTTP vocabulary of the app over tiny_http: a request's path and query
//! ([`Target`]), answers ([`Answer`]: JSON, text, an embedded asset, an error), and a
//! stream of server-sent events ([`EventStream`]) written straight to the connection so
//! that each event leaves at once.

use std::collections::HashMap;
use std::io::{self, Read, Write};

use serde_json::Value;
use tiny_http::{Header, Request, Response};

/// The most a request body may hold (a move, a new game's settings).
pub const MAX_BODY: u64 = 64 * 1024;

/// A request's path and its decoded query parameters.
#[derive(Debug, PartialEq, Eq)]
pub struct Target {
    /// The path, percent-decoded (`/api/run`).
    pub path: String,
    /// The query's parameters (the last of a repeated name wins).
    pub query: HashMap<String, String>,
}

impl Target {
    /// The target of `url` as a request line gives it (`/api/run?r=0%2Fruns`).
    pub fn of(url: &str) -> Target {
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let path = percent_encoding::percent_decode_str(path)
            .decode_utf8_lossy()
            .into_owned();
        Target {
            path,
            query: form_urlencoded::parse(query.as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        }
    }

    /// A query parameter.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.query.get(name).map(String::as_str)
    }
}

/// What a handler answers.
pub enum Answer {
    /// JSON, `200 OK`.
    Json(Value),
    /// Text of a content type, `200 OK`.
    Text(&'static str, String),
    /// An embedded file: its content type and bytes.
    Asset(&'static str, &'static [u8]),
    /// An error status and its message (sent as JSON `{"error": ...}`).
    Error(u16, String),
}

impl Answer {
    /// `404 Not Found` with `what` in the message.
    pub fn not_found(what: &str) -> Answer {
        Answer::Error(404, format!("not found: {what}"))
    }

    /// Sends the answer; a client gone meanwhile is no error of the server's.
    pub fn send(self, request: Request) {
        let (status, kind, body): (u16, &str, Vec<u8>) = match self {
            Answer::Json(v) => (200, "application/json", v.to_string().into_bytes()),
            Answer::Text(kind, t) => (200, kind, t.into_bytes()),
            Answer::Asset(kind, b) => (200, kind, b.to_vec()),
            Answer::Error(code, message) => (
                code,
                "application/json",
                serde_json::json!({ "error": message })
                    .to_string()
                    .into_bytes(),
            ),
        };
        let response = Response::from_data(body)
            .with_status_code(status)
            .with_header(header("Content-Type", kind))
            .with_header(header("Cache-Control", "no-store"))
            .with_header(header("X-Content-Type-Options", "nosniff"))
            .with_header(header(
                "Content-Security-Policy",
                "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
            ));
        let _ = request.respond(response);
    }
}

/// A header from fixed text.
pub fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

/// A request's body as text, at most [`MAX_BODY`] bytes.
pub fn body(request: &mut Request) -> Result<String, String> {
    let mut text = String::new();
    request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_string(&mut text)
        .map_err(|e| format!("reading the request: {e}"))?;
    if text.len() as u64 > MAX_BODY {
        return Err(format!("a request body over {MAX_BODY} bytes"));
    }
    Ok(text)
}

/// Server-sent events on one connection (`text/event-stream`), each flushed as sent.
pub struct EventStream {
    out: Box<dyn Write + Send>,
}

impl EventStream {
    /// Answers `request` with the event stream's headers and keeps its connection.
    pub fn open(request: Request) -> io::Result<EventStream> {
        let mut out = request.into_writer();
        out.write_all(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
              Connection: close\r\nX-Accel-Buffering: no\r\n\r\n",
        )?;
        out.flush()?;
        Ok(EventStream { out })
    }

    /// Sends the event `name` with `data` (JSON, on one line); an error once the client
    /// has gone.
    pub fn send(&mut self, name: &str, data: &Value) -> io::Result<()> {
        write!(self.out, "event: {name}\ndata: {data}\n\n")?;
        self.out.flush()
    }

    /// A comment line that keeps the connection open and finds a client that left.
    pub fn keep_alive(&mut self) -> io::Result<()> {
        self.out.write_all(b": keep-alive\n\n")?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_decode_paths_and_queries() {
        let t = Target::of("/api/run?r=0%2Fruns%2Fa%20b&g=12&r2=%2E%2E");
        assert_eq!(t.path, "/api/run");
        assert_eq!(t.get("r"), Some("0/runs/a b"));
        assert_eq!(t.get("g"), Some("12"));
        assert_eq!(t.get("r2"), Some(".."));
        assert_eq!(Target::of("/a%2Fb+c").path, "/a/b+c");
        assert_eq!(Target::of("/").query.len(), 0);
    }
}
