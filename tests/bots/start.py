#!/usr/bin/env python3
"""A bot that reports the start position it is told, for tests/external.rs.

It writes "start FEN" to stderr for each new_game (FEN the message's start field, or
"absent" without one), then plays the first legal move of every turn.
"""
import json, sys


def say(obj):
    print(json.dumps(obj), flush=True)


for line in sys.stdin:
    msg = json.loads(line)
    t = msg["type"]
    if t == "hello":
        say({"type": "hello", "protocol": 1, "name": "start"})
    elif t == "new_game":
        print(f"start {msg.get('start', 'absent')}", file=sys.stderr, flush=True)
        say({"type": "ready"})
    elif t == "turn":
        say({"type": "move", "move": msg["legal"][0]})
    elif t == "quit":
        sys.exit(0)
