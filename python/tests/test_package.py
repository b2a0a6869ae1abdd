"""The package itself: what it exports, its errors, its documentation and its stubs."""

import pathlib

import fow


def test_exports_are_documented():
    for name in fow.__all__:
        obj = getattr(fow, name)
        if callable(obj):
            assert obj.__doc__, f"fow.{name} has no docstring"


def test_errors_are_value_errors_with_fows_message():
    assert issubclass(fow.FowError, ValueError)
    try:
        fow.Game(fen="8/8/8 w - - 0 1")
    except fow.FowError as e:
        assert "malformed FEN" in str(e) and "\n" not in str(e)
    else:
        raise AssertionError("a malformed FEN was accepted")


def test_the_stubs_name_every_export():
    stubs = pathlib.Path(fow.__file__).with_name("_fow.pyi")
    assert stubs.exists(), "the type stubs are installed with the package"
    text = stubs.read_text()
    native = [n for n in dir(fow._fow) if not n.startswith("_")]
    declared = ("def {}(", "class {}(", "class {}:", "{}: ")
    missing = [n for n in native if not any(d.format(n) in text for d in declared)]
    assert not missing, f"not in _fow.pyi: {missing}"
    assert pathlib.Path(fow.__file__).with_name("py.typed").exists()


def test_a_bool_is_no_move():
    g = fow.Game()
    for flag in (True, False):
        try:
            g.play(flag)
        except fow.FowError as e:
            assert "True or False" in str(e)
        else:
            raise AssertionError(f"{flag} was taken as a move")
    assert g.ply == 0
