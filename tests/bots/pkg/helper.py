"""The module beside tests/bots/pkg/bot.py."""


def first_legal(legal):
    return legal[0]
