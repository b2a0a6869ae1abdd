#!/usr/bin/env python3
"""A bot in a folder of its own that imports a module beside it (tests/sandbox.rs): it
runs in the sandbox only if the program's folder is shown."""
import json
import sys

from helper import first_legal

for line in sys.stdin:
    msg = json.loads(line)
    t = msg["type"]
    if t == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "pkg"}), flush=True)
    elif t == "new_game":
        print(json.dumps({"type": "ready"}), flush=True)
    elif t == "turn":
        print(json.dumps({"type": "move", "move": first_legal(msg["legal"])}), flush=True)
    elif t == "quit":
        break
