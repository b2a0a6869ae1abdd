#!/usr/bin/env python3
"""A bot that misbehaves in one way, for the fault tests (tests/external.rs).

Usage: faulty.py MODE, MODE one of
  silent     never answers a turn
  garbage    answers a turn with a line that is not JSON
  illegal    answers a well-formed move that is not legal (a1a1)
  crash      exits with status 3 on its third turn
  flood      answers a turn with endless output and no newline
  noquit     plays legal moves, then ignores quit and the end of its input
  slowstart  sleeps before its hello
  fork       starts a child that sleeps for ten minutes (and writes "child PID" to
             stderr), then plays legal moves
  badrange   declares in its hello an int option x with min 3 above max 1
  snoop      tries to list the folder given as its second argument (--dir=PATH), writes
             what it saw and its network namespace and interfaces to stderr, then plays
             legal moves
It writes its pid to stderr first, so a test can check the process is gone.
"""
import json, os, socket, subprocess, sys, time

mode = sys.argv[1]
print(f"pid {os.getpid()} mode {mode}", file=sys.stderr, flush=True)


def say(obj):
    print(json.dumps(obj), flush=True)


if mode == "slowstart":
    time.sleep(60)
if mode == "fork":
    child = subprocess.Popen(["sleep", "600"])
    print(f"child {child.pid}", file=sys.stderr, flush=True)
if mode == "snoop":
    try:
        seen = "listed " + ",".join(sorted(os.listdir(sys.argv[2].removeprefix("--dir="))))
    except OSError as e:
        seen = f"cannot list ({e.__class__.__name__})"
    try:
        interfaces = ",".join(sorted(name for _, name in socket.if_nameindex()))
        net = f"{os.readlink('/proc/self/ns/net')} interfaces {interfaces}"
    except OSError as e:
        net = f"no network ({e.__class__.__name__})"
    print(f"snoop: {seen}; {net}", file=sys.stderr, flush=True)
turns = 0
for line in sys.stdin:
    msg = json.loads(line)
    t = msg["type"]
    if t == "hello":
        hello = {"type": "hello", "protocol": 1, "name": "faulty-" + mode}
        if mode == "badrange":
            hello["options"] = [{"name": "x", "type": "int", "min": 3, "max": 1}]
        say(hello)
    elif t == "new_game":
        say({"type": "ready"})
    elif t == "turn":
        turns += 1
        if mode == "silent":
            continue
        if mode == "garbage":
            print("this is not json", flush=True)
        elif mode == "illegal":
            say({"type": "move", "move": "a1a1"})
        elif mode == "crash" and turns == 3:
            print("crashing on purpose", file=sys.stderr, flush=True)
            sys.exit(3)
        elif mode == "flood":
            chunk = "x" * 65536
            while True:
                sys.stdout.write(chunk)
        else:
            say({"type": "move", "move": msg["legal"][0]})
    elif t == "quit" and mode != "noquit":
        sys.exit(0)
if mode == "noquit":
    while True:
        time.sleep(1)
