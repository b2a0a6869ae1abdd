#!/usr/bin/env python3
"""A tiny fake UCI engine for the tests of the `uci:` player (tests/uci.rs).

Usage: fake_uci.py MODE, MODE one of
  good      answers every `go` with a legal-looking move of the position: a pawn push
            to an empty square, else a knight or king step to a square without an own
            piece (no real chess logic), else `bestmove 0000`
  silent    never answers `go`
  garbage   answers `go` with `bestmove xyzzy`
  illegal   answers `go` with `bestmove a1a1`
  none      answers `go` with `bestmove (none)`
  crash     exits with status 3 at its third `go`
  nouciok   never answers `uci`
Before `uciok` it lists the options in OPTIONS (as Stockfish does, and one of each other
type), plus `option name Broken type spin default 1` (no range: a line fow cannot read).
It writes its pid to stderr first, then every `uci`, `setoption`, `ucinewgame`, `isready`
and `position` line it gets, so a test can check the process is gone, the options it was
set and the FENs it was sent.
"""
import os
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "good"
print(f"pid {os.getpid()} mode {mode}", file=sys.stderr, flush=True)


def say(text):
    print(text, flush=True)


def parse_fen(fen):
    rows, turn = fen.split()[0], fen.split()[1]
    board = {}
    for r, row in enumerate(rows.split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                board[(f, 7 - r)] = c
                f += 1
    return board, turn


def name(sq):
    return "abcdefgh"[sq[0]] + str(sq[1] + 1)


def first_move(fen):
    board, turn = parse_fen(fen)
    white = turn == "w"
    own = lambda c: c is not None and c.isupper() == white
    squares = sorted(board)
    for sq in squares:
        c = board[sq]
        if own(c) and c.lower() == "p":
            to = (sq[0], sq[1] + (1 if white else -1))
            if 0 <= to[1] < 8 and to not in board:
                promo = "q" if to[1] in (0, 7) else ""
                return name(sq) + name(to) + promo
    steps = {
        "n": [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)],
        "k": [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
    }
    for kind in "nk":
        for sq in squares:
            c = board[sq]
            if own(c) and c.lower() == kind:
                for dx, dy in steps[kind]:
                    to = (sq[0] + dx, sq[1] + dy)
                    if 0 <= to[0] < 8 and 0 <= to[1] < 8 and not own(board.get(to)):
                        return name(sq) + name(to)
    return "0000"


OPTIONS = [
    "option name Hash type spin default 16 min 1 max 1024",
    "option name Skill Level type spin default 20 min 0 max 20",
    "option name Ponder type check default false",
    "option name Style type combo default Normal var Solid var Normal var Risky",
    "option name Clear Hash type button",
    "option name SyzygyPath type string default <empty>",
    "option name Broken type spin default 1",
]

fen = None
gos = 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd in ("uci", "setoption", "ucinewgame", "isready"):
        print(line.strip(), file=sys.stderr, flush=True)
    if cmd == "uci":
        if mode == "nouciok":
            continue
        say("id name fake_uci " + mode)
        for option in OPTIONS:
            say(option)
        say("uciok")
    elif cmd == "isready":
        say("readyok")
    elif cmd == "position":
        print(line.strip(), file=sys.stderr, flush=True)
        if len(words) > 2 and words[1] == "fen":
            fen = " ".join(words[2:8])
    elif cmd == "go":
        gos += 1
        if mode == "silent":
            continue
        if mode == "crash" and gos == 3:
            print("crashing on purpose", file=sys.stderr, flush=True)
            sys.exit(3)
        say("info depth 1 nodes 7")
        if mode == "garbage":
            say("bestmove xyzzy")
        elif mode == "illegal":
            say("bestmove a1a1")
        elif mode == "none":
            say("bestmove (none)")
        else:
            say("bestmove " + first_move(fen))
    elif cmd == "quit":
        sys.exit(0)
