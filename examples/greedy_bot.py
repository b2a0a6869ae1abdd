#!/usr/bin/env python3
"""A greedy fog-of-war bot (the fow bot protocol, PROTOCOL.md): it reads its fog-FEN view,
captures the heaviest visible enemy piece it can (pawn 1, knight 3, bishop 3, rook 5,
queen 10, king 100; like the built-in CaptureLargest), and otherwise plays a random legal
move. Standard library only.

    fow tournament --players "CaptureLargest,exec:cmd=python3 examples/greedy_bot.py,name=GreedyPy"

Option (in the spec, e.g. `...,name=GreedyPy,king_only=1`): king_only=1 captures only
the king and plays randomly otherwise.
"""
import json
import random
import sys

WEIGHT = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 10, "k": 100}


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
    for line in sys.stdin:
        msg = json.loads(line)
        t = msg["type"]
        if t == "hello":
            options = [{"name": "king_only", "default": "0", "description": "capture only the king"}]
            print(json.dumps({"type": "hello", "protocol": 1, "name": "GreedyPy", "options": options}), flush=True)
        elif t == "new_game":
            rng.seed(msg["seed"])
            king_only = msg["options"].get("king_only", "0") == "1"
            print(json.dumps({"type": "ready"}), flush=True)
        elif t == "turn":
            board = board_of(msg["view"])
            white = msg["view"].split()[1] == "w"
            best, best_value = [], 0
            for move in msg["legal"]:
                victim = board.get(move[2:4])
                value = 0
                if victim is not None and victim.isupper() != white:
                    value = WEIGHT[victim.lower()]
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
