#!/usr/bin/env python3
"""A greedy fog-of-war bot (the fow bot protocol, PROTOCOL.md): it reads its fog-FEN view,
captures the heaviest visible enemy piece it can (pawn 1, knight 3, bishop 3, rook 5,
queen 10, king 100; like the built-in CaptureLargest), and otherwise plays a random legal
move. Standard library only.

    fow tournament --players "CaptureLargest,exec:cmd=python3 examples/greedy_bot.py,name=GreedyPy"

Options (in the spec, e.g. `...,name=GreedyPy,greed=0.8,queen=9`), declared in its
hello with their types and ranges, so that fow checks the values and `fow tune` can tune
the two numbers:
  greed      real, 0 to 1 (default 1): the probability of playing the greedy move on a
             turn; otherwise a random legal move
  queen      int, 1 to 20 (default 10): what capturing a queen is worth (rook 5)
  king_only  1: capture only the king and play randomly otherwise (default 0)
"""
import json
import random
import sys

WEIGHT = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 10, "k": 100}

OPTIONS = [
    {"name": "greed", "default": "1", "type": "real", "min": 0, "max": 1,
     "description": "probability of the greedy move on a turn, else a random one"},
    {"name": "queen", "default": "10", "type": "int", "min": 1, "max": 20,
     "description": "what capturing a queen is worth (rook 5)"},
    {"name": "king_only", "default": "0", "description": "capture only the king"},
]


def board_of(fog_fen):
    """Square name ('e4') -> piece letter for every visible piece; '?' is fog."""
    board = {}
    for i, row in enumerate(fog_fen.split()[0].split("/")):
        rank = 8 - i
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                if ch != "?":
                    board["abcdefgh"[file] + str(rank)] = ch
                file += 1
    return board


def main():
    rng = random.Random()
    king_only = False
    greed, weight = 1.0, dict(WEIGHT)
    for line in sys.stdin:
        msg = json.loads(line)
        t = msg["type"]
        if t == "hello":
            print(json.dumps({"type": "hello", "protocol": 1, "name": "GreedyPy", "options": OPTIONS}), flush=True)
        elif t == "new_game":
            rng.seed(msg["seed"])
            options = msg["options"]
            king_only = options.get("king_only", "0") == "1"
            # fow checked the values against the ranges declared in the hello.
            greed = float(options.get("greed", "1"))
            weight = dict(WEIGHT, q=int(options.get("queen", "10")))
            print(json.dumps({"type": "ready"}), flush=True)
        elif t == "turn":
            # With greed 1 no number is drawn: the games are those of the bot without it.
            if greed < 1 and rng.random() >= greed:
                print(json.dumps({"type": "move", "move": rng.choice(msg["legal"])}), flush=True)
                continue
            board = board_of(msg["view"])
            white = msg["view"].split()[1] == "w"
            best, best_value = [], 0
            for move in msg["legal"]:
                victim = board.get(move[2:4])
                value = 0
                if victim is not None and victim.isupper() != white:
                    value = weight[victim.lower()]
                    if king_only and victim.lower() != "k":
                        value = 0
                if value > best_value:
                    best, best_value = [move], value
                elif value == best_value:
                    best.append(move)
            print(json.dumps({"type": "move", "move": rng.choice(best)}), flush=True)
        elif t == "quit":
            break


if __name__ == "__main__":
    main()
