"""A Python bot as a program over the fow bot protocol (PROTOCOL.md), so that the class
that plays in-process in ``fow.tournament`` also plays as an ``exec:`` player::

    python3 -m fow.serve mybots:Greedy [--name Greedy]

    fow tournament --seed 1 --players "RandomMove,exec:cmd=python3 -m fow.serve mybots:Greedy,name=Greedy,env.PYTHONPATH=."

What the protocol sends becomes exactly what an in-process bot receives: ``new_game``
a :class:`fow.GameStart` (colour, seed, rules, start FEN), each ``turn`` a
:class:`fow.Observation` rebuilt from its view, previous view, ply and rules, whose legal
moves are checked against the ``legal`` list fow sent. The bot's answer (UCI text or an
action number) goes back as its move; an exception is reported as an ``error`` (the game
is lost, ``player error``) with its traceback on stderr, which fow saves to the run's
``logs/``. The bot's own prints go to stderr too: stdout carries the protocol only.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import traceback

from . import GameStart, Observation, action_to_uci


def load(target: str):
    """The object ``module:attribute`` names (``mybots:Greedy``, ``pkg.mod:Outer.Inner``)."""
    module, sep, attr = target.partition(":")
    if not sep or not module or not attr:
        raise SystemExit(f"fow.serve: '{target}' is not module:Class")
    obj = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def rules_text(rules: dict) -> str:
    """The rules of a ``new_game`` message as the switches ``fow.Game`` and
    ``fow.Observation`` read."""
    count = lambda n: "off" if n is None else str(n)  # noqa: E731
    return ",".join(
        [
            "en-passant=" + ("on" if rules["en_passant"] else "off"),
            "promotion=" + rules["promotion"],
            "castling=" + rules["castling"],
            "draw-plies=" + count(rules["draw_plies"]),
            "repetition=" + count(rules["repetition"]),
        ]
    )


def _failure(name: str, stage: str, e: BaseException) -> str:
    """Writes ``e``'s traceback to stderr (the run's log) and returns the one-line error
    an in-process bot's game records."""
    sys.stderr.write(f"{name} ({stage}):\n{''.join(traceback.format_exception(type(e), e, e.__traceback__))}")
    sys.stderr.flush()
    text = str(e)
    kind = type(e).__name__
    return f"{stage} raised {kind}: {text}" if text else f"{stage} raised {kind}"


def serve(make, name: str, stdin=None, stdout=None) -> None:
    """Plays the bot that ``make()`` makes (one per game) over the protocol on ``stdin``
    and ``stdout`` (the process's by default) until ``quit`` or the end of input."""
    stdin = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    if stdout is None:
        # The bot's prints go to stderr: stdout carries the protocol only.
        sys.stdout = sys.stderr

    def send(msg: dict) -> None:
        out.write(json.dumps(msg) + "\n")
        out.flush()

    bot = None
    rules = None
    for line in stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            send({"type": "hello", "protocol": 1, "name": name, "options": []})
        elif kind == "new_game":
            bot = None
            if msg.get("options"):
                send({"type": "error", "message": "a Python bot takes no options"})
                continue
            rules = rules_text(msg["rules"])
            start = GameStart(msg["color"], msg["seed"], rules, msg.get("start"))
            try:
                bot = make()
                bot.start(start)
            except Exception as e:  # the game is lost, as in-process
                send({"type": "error", "message": _failure(name, "start", e)})
                continue
            send({"type": "ready"})
        elif kind == "turn":
            obs = Observation(msg["view"], msg.get("previous"), msg["ply"], rules)
            if obs.legal_moves() != msg["legal"]:
                send({"type": "error", "message": "fow.serve: the observation rebuilt from the turn does not list the legal moves fow sent"})
                continue
            try:
                answer = bot.choose(obs)
            except Exception as e:
                send({"type": "error", "message": _failure(name, "choose", e)})
                continue
            if isinstance(answer, bool) or not isinstance(answer, (str, int)) and not hasattr(answer, "__index__"):
                send({"type": "error", "message": f"choose returned {answer!r:.60}, not UCI text or an action number"})
                continue
            move = answer if isinstance(answer, str) else action_to_uci(int(answer))
            send({"type": "move", "move": move})
        elif kind == "game_end":
            finish = getattr(bot, "finish", None)
            if finish is not None:
                try:
                    finish(msg["outcome"], msg["reason"])
                except Exception as e:  # the game is over: only the log hears it
                    _failure(name, "finish", e)
            bot = None
        elif kind == "quit":
            break


def main(argv=None) -> None:
    """``python3 -m fow.serve module:Class [--name NAME]``."""
    p = argparse.ArgumentParser(prog="python3 -m fow.serve", description=__doc__.split("\n\n")[0])
    p.add_argument("bot", help="the bot's class (or a callable that makes one) as module:Class")
    p.add_argument("--name", help="the name in its hello (default: the class's __name__)")
    a = p.parse_args(argv)
    make = load(a.bot)
    serve(make, a.name or getattr(make, "__name__", a.bot))


if __name__ == "__main__":
    main()
