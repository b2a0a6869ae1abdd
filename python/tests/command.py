"""The `fow` command for the tests that compare the package with it: $FOW_BIN (set by
tests/python.rs to the command `cargo test` built), else this checkout's build, else the
one on the PATH; a test without one is skipped, with the reason."""

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def fow_command() -> str:
    """The path of the `fow` command, or a skip of the calling test."""
    built = [REPO / "target" / kind / "fow" for kind in ("debug", "release")]
    built = sorted((p for p in built if p.is_file()), key=lambda p: -p.stat().st_mtime)
    for candidate in (os.environ.get("FOW_BIN"), *built, shutil.which("fow")):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    pytest.skip("the fow command is not built (cargo build, or set FOW_BIN)")
