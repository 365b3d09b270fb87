"""docs/tutorial.md cannot drift: every `$ rulebook ...` line of its console blocks is run
through the real command line (in a scratch folder holding a copy of examples/), must exit 0,
and must print the lines shown, in order (`...` skips any number; timings are ignored)."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial.md"
_BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)
_TIMING = re.compile(r"\s*(\(\d+\.\d+s\)|in \d+\.\d+s)$")


def _commands() -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for block in _BLOCK.findall(TUTORIAL.read_text(encoding="utf-8")):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif out:
                out[-1][1].append(line)
    return out


def _plain(line: str) -> str:
    return _TIMING.sub("", line.rstrip())


def test_the_tutorial_has_commands():
    assert len(_commands()) >= 6


def test_every_tutorial_command_prints_what_the_tutorial_shows(tmp_path, capsys, monkeypatch):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    for command, shown in _commands():
        argv = shlex.split(command)
        assert argv[0] == "rulebook", command
        code = main(argv[1:])
        got = [_plain(x) for x in capsys.readouterr().out.splitlines()]
        assert code == 0, (command, got)
        at = 0
        for want in (_plain(x) for x in shown):
            if want == "...":
                continue
            while at < len(got) and got[at] != want:
                at += 1
            if at == len(got):
                pytest.fail(f"`{command}` did not print {want!r}; it printed:\n" + "\n".join(got))
            at += 1
