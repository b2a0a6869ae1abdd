#!/usr/bin/env python3
"""A fog-of-war bot that plays a uniformly random legal move (the fow bot protocol,
PROTOCOL.md). Standard library only.

    fow tournament --players "RandomMove,exec:cmd=python3 examples/random_bot.py,name=RandomPy"
"""
import json
import random
import sys

rng = random.Random()
for line in sys.stdin:
    msg = json.loads(line)
    t = msg["type"]
    if t == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "RandomPy", "options": []}), flush=True)
    elif t == "new_game":
        rng.seed(msg["seed"])
        print(json.dumps({"type": "ready"}), flush=True)
    elif t == "turn":
        print(json.dumps({"type": "move", "move": rng.choice(msg["legal"])}), flush=True)
    elif t == "quit":
        break
