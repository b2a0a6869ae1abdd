#!/usr/bin/env python3
"""A bot whose text holds control characters, for tests/external.rs.

Usage: control.py MODE, MODE one of
  error    says hello with a name holding a NUL and an escape sequence, then answers
           its first turn with an error whose message holds a NUL, a newline and an
           escape sequence
  garbage  answers its first turn with a line that is not JSON and holds a NUL and an
           escape sequence
It writes its pid to stderr first, so a test can check the process is gone.
"""
import json, os, sys

mode = sys.argv[1]
print(f"pid {os.getpid()} mode {mode}", file=sys.stderr, flush=True)


def say(obj):
    print(json.dumps(obj), flush=True)


for line in sys.stdin:
    msg = json.loads(line)
    t = msg["type"]
    if t == "hello":
        say({"type": "hello", "protocol": 1, "name": "ctl\u0000bot\u001b[2J"})
    elif t == "new_game":
        say({"type": "ready"})
    elif t == "turn":
        if mode == "error":
            say({"type": "error", "message": "out\u0000of\nmemory \u001b[31mred\u0007"})
        else:
            sys.stdout.write("not\u0000json \u001b[31mred\n")
            sys.stdout.flush()
    elif t == "quit":
        sys.exit(0)
