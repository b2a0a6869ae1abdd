//! The app's files, embedded in the binary (no CDN, nothing fetched: it works offline):
//! one page, its script and its style sheet. Pieces are Unicode text.

use crate::http::Answer;

/// The files, by path: content type and bytes.
const ASSETS: [(&str, &str, &[u8]); 3] = [
    (
        "/index.html",
        "text/html; charset=utf-8",
        include_bytes!("../assets/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/app.js"),
    ),
    (
        "/app.css",
        "text/css; charset=utf-8",
        include_bytes!("../assets/app.css"),
    ),
];

/// The embedded file at `path`, or `404 Not Found`.
pub fn asset(path: &str) -> Answer {
    ASSETS.iter().find(|(p, _, _)| *p == path).map_or_else(
        || Answer::not_found(path),
        |(_, kind, bytes)| Answer::Asset(kind, bytes),
    )
}
