#!/bin/sh
# Screenshots of every page of `fow web`, taken by the browser tests (headless Chromium
# through the DevTools protocol) and kept here: index, run, match, game, belief, play,
# play-over, live-run, watch.
set -e
cd "$(dirname "$0")/../.."
FOW_WEB_SHOTS="$PWD/results/web" cargo test --test web_browser -- --test-threads 1
