"""The examples of README.md and docs/*.md, found, run and compared with what the code prints.

A fenced block is an *example candidate* when it shows a command (a line starting ``$ ``) or
is Python. Each candidate carries a marker, an HTML comment on the line right before its fence
(GitHub does not show it):

``<!-- example -->``
    a shell block: each ``$ command`` line (a trailing ``\\`` joins the next line) is run and
    the lines after it, up to the next ``$`` line, are what it prints (stdout and stderr
    together); a Python block: the code runs, in one namespace shared by the Python examples
    of the same file, in order, and must not raise.
``<!-- example: OPTION; OPTION -->``
    the same with options: ``slow`` (marked ``slow``: it runs first, and ``-m "not slow"``
    leaves it out; say in the doc how long it takes: ``slow, about 10 s``), ``stdout`` (only
    stdout is shown),
    ``mask=REGEX`` (a volatile part, replaced on both sides before comparing; may repeat),
    ``continues`` (runs in the folder of the doc's example before it, after running that one),
    ``before=COMMAND`` (run first, its output not shown: the files an example needs that an
    earlier, unmarked block made),
    ``one-command`` (only the first ``$`` line is a command: what it prints has ``$`` lines).
``<!-- not-an-example: why -->``
    the block is not run (a sketch, a signature, an interactive session, a server); the reason
    is required.
``<!-- file: NAME -->``
    before a block that shows the content of ``docs/examples/NAME``; the content must equal it.

In shown output a line ``...`` stands for any number of lines and ``...`` inside a line for
any text. Timings (``0.52 s``, ``in 2.69s``), the number of worker processes and absolute paths
are masked always.

Every example runs in a fresh temporary folder holding a copy of ``docs/examples/`` and of
``examples/``, with ``rulesets/``, ``tests/`` and ``schemas/`` linked from the repository.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "docs" / "examples"
#: docs whose blocks are not marked yet; the docs test skips them until they are
PENDING: set[str] = set()
LINKED = ("rulesets", "tests", "schemas", "grammar")

_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
_MARKER = re.compile(r"^\s*<!--\s*(example|not-an-example|file)\s*(?::\s*(.*?))?\s*-->\s*$")
MASKS = [
    (re.compile(r"\d+\.\d+ ?m?s\b"), "<time>"),
    (re.compile(r"with \d+ job\(s\)"), "with <n> job(s)"),
    # a long run's closing progress line: its wall time and rate
    (re.compile(r"games in \d+:\d\d \([\d.]+ games/s\)"), "games in <time>"),
    (re.compile(r"(?<![\w.])/(?:[\w.+-]+/)+[\w.+-]*"), "<path>"),
    # a table's column padding and rule line follow its longest cell, which may be a path
    # whose length depends on the machine: the words are compared, not the padding
    (re.compile(r"-{10,}"), "<rule>"),
    (re.compile(r" {2,}"), " "),
]


@dataclass
class Block:
    """One fenced block of a Markdown file: where it is, what it holds, how it is marked."""

    doc: str  # path relative to the repository root
    line: int  # 1-based line of the opening fence
    info: str  # the fence's info string
    body: list[str]
    kind: str | None = None  # example | not-an-example | file | None (unmarked)
    options: list[str] = field(default_factory=list)
    reason: str = ""

    @property
    def is_python(self) -> bool:
        return self.info.split()[:1] in (["python"], ["py"], ["pycon"])

    @property
    def is_candidate(self) -> bool:
        return self.is_python or any(x.lstrip().startswith("$ ") for x in self.body)

    def has(self, option: str) -> bool:
        """Whether the marker names this option (``slow, about 90 s`` names ``slow``)."""
        return any(re.split(r"[\s,(=]", o, maxsplit=1)[0] == option for o in self.options)

    @property
    def slow(self) -> bool:
        return self.has("slow")

    @property
    def masks(self) -> list[tuple[re.Pattern[str], str]]:
        extra = [o[5:] for o in self.options if o.startswith("mask=")]
        return MASKS + [(re.compile(x), "<masked>") for x in extra]

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


def doc_files() -> list[str]:
    """README.md and docs/*.md, as paths relative to the repository root."""
    return ["README.md"] + sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))


def blocks(doc: str) -> list[Block]:
    """Every fenced block of one Markdown file, with the marker before it (if any)."""
    lines = (ROOT / doc).read_text(encoding="utf-8").split("\n")
    out: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.group(1), m.group(2), m.group(3).strip()
        start, body = i, []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
            i += 1
        block = Block(doc, start + 1, info, body)
        marker = _MARKER.match(lines[start - 1]) if start else None
        if marker:
            block.kind = marker.group(1)
            rest = (marker.group(2) or "").strip()
            if block.kind == "example":
                block.options = [o.strip() for o in rest.split(";") if o.strip()]
            else:
                block.reason = rest
        out.append(block)
        i += 1
    return out


def commands(block: Block) -> list[tuple[str, list[str]]]:
    """A shell example as (command, the lines shown after it)."""
    out: list[tuple[str, list[str]]] = []
    joining = False
    for line in block.body:
        if joining:
            out[-1] = (out[-1][0][:-1] + " " + line.strip(), out[-1][1])
        elif line.startswith("$ ") and not (out and block.has("one-command")):
            out.append((line[2:].strip(), []))
        elif out:
            out[-1][1].append(line)
        joining = bool(out) and not out[-1][1] and out[-1][0].endswith("\\")
    return out


@contextlib.contextmanager
def workdir():
    """A fresh folder with the files examples use; yields its path, removed afterwards."""
    tmp = Path(tempfile.mkdtemp(prefix="rulebook-docs-"))
    try:
        if SHIPPED.is_dir():
            for p in SHIPPED.iterdir():
                if p.name.startswith("."):  # .rulebookignore: the repository's, not an example's
                    continue
                (shutil.copytree if p.is_dir() else shutil.copy)(p, tmp / p.name)
        shutil.copytree(ROOT / "examples", tmp / "examples")
        for name in LINKED:
            if (ROOT / name).exists():
                (tmp / name).symlink_to(ROOT / name)
        bindir = tmp / ".bin"
        bindir.mkdir()
        # `rulebook` and `python` as the docs' reader has them in their venv, whichever
        # `python` the shell running the tests finds first
        shims = {
            "rulebook": f'exec "{sys.executable}" -m interpreter.cli.main "$@"',
            "python": f'exec "{sys.executable}" "$@"',
        }
        for name, line in shims.items():
            shim = bindir / name
            shim.write_text(f"#!/bin/sh\n{line}\n")
            shim.chmod(0o755)
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


_SIMPLE = re.compile(r"^((?:[A-Z_]+=\S*\s+)*)rulebook(\s.*)?$")
_SHELL = re.compile(r"[|&;<>`$()]")


def run_command(
    command: str, cwd: Path, *, stdout_only: bool = False, last_code: int = 0
) -> tuple[str, int]:
    """What one documented command prints, and its exit code, run from ``cwd``: a plain
    ``rulebook ...`` line runs in this process (fast: rule files compile once); ``echo $?``
    prints the exit code of the command before; anything else runs in bash, with a
    ``rulebook`` and a ``python`` on its PATH that run this checkout."""
    if command.strip() == "echo $?":
        return f"{last_code}\n", 0
    words = shlex.split(command, comments=True)
    text = " ".join(shlex.quote(w) for w in words)
    m = _SIMPLE.match(text)
    if m and not _SHELL.search(m.group(2) or ""):
        env = dict(w.split("=", 1) for w in m.group(1).split())
        return _in_process(words[len(env) + 1 :], env, cwd, stdout_only)
    env = dict(os.environ)
    env["PATH"] = f"{cwd / '.bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL if stdout_only else subprocess.STDOUT,
        text=True,
        timeout=600,
    )
    return done.stdout, done.returncode


def _in_process(
    argv: list[str], env: dict[str, str], cwd: Path, stdout_only: bool
) -> tuple[str, int]:
    from interpreter.cli.main import main

    buf, err = io.StringIO(), io.StringIO()
    old_cwd, old_env = os.getcwd(), {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    os.chdir(cwd)
    try:
        with (
            contextlib.redirect_stdout(buf),
            contextlib.redirect_stderr(err if stdout_only else buf),
        ):
            code = main(argv)
    finally:
        os.chdir(old_cwd)
        for k, v in old_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return buf.getvalue(), code


def run_python(code: str, namespace: dict, cwd: Path) -> None:
    """Run one Python example from ``cwd`` in ``namespace`` (shared by a file's examples)."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, "<docs example>", "exec"), namespace)  # noqa: S102
    finally:
        os.chdir(old)


def mask(line: str, masks: list[tuple[re.Pattern[str], str]]) -> str:
    """A line with its volatile parts replaced, trailing blanks dropped."""
    for rx, to in masks:
        line = rx.sub(to, line)
    return line.rstrip()


def _pattern(shown: list[str]) -> re.Pattern[str]:
    parts = []
    for line in shown:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(re.escape(p) for p in line.split("...")) + r"\n")
    return re.compile("".join(parts))


def _trim(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def matches(shown: list[str], printed: list[str], masks=MASKS) -> bool:
    """Whether the printed lines are what is shown (``...`` lines and parts elided), once
    both have their volatile parts masked."""
    shown = [mask(x, masks) for x in _trim(shown)]
    text = "".join(mask(x, masks) + "\n" for x in _trim(printed))
    return _pattern(shown).fullmatch(text) is not None


@dataclass
class Ran:
    """One command of a shell example: what the doc shows and what the code printed."""

    command: str
    shown: list[str]
    printed: list[str]  # the temporary folder's path taken out, nothing else masked


def run_shell(block: Block, tmp: Path) -> list[Ran]:
    """Run each command of a shell example from ``tmp``."""
    if block.has("continues"):
        shell = [b for b in blocks(block.doc) if b.kind == "example" and not b.is_python]
        earlier = [b for b in shell if b.line < block.line]
        if earlier:
            run_shell(earlier[-1], tmp)
    for option in block.options:
        if option.startswith("before="):
            run_command(option[7:], tmp)
    out = []
    code = 0
    for command, shown in commands(block):
        text, code = run_command(command, tmp, stdout_only=block.has("stdout"), last_code=code)
        for t in {str(tmp.resolve()), str(tmp), str(ROOT)}:
            text = text.replace(t + "/", "")
        out.append(Ran(command, shown, _trim(text.splitlines())))
    return out


def difference(block: Block, results: list[Ran]) -> str | None:
    """A readable diff for the first command whose output differs, or None when all match."""
    for r in results:
        if not matches(r.shown, r.printed, block.masks):
            shown = [mask(x, block.masks) for x in _trim(r.shown)]
            printed = [mask(x, block.masks) for x in r.printed]
            diff = difflib.unified_diff(shown, printed, "shown in the doc", "printed", lineterm="")
            return f"{block.where}: `$ {r.command}` prints something else:\n" + "\n".join(diff)
    return None


def regenerated(block: Block, ran: Ran) -> list[str]:
    """The output lines to write after an intended change: the printed lines, keeping the
    block's elisions (``...``) where the lines around them can be found again."""
    shown, printed, masks = ran.shown, ran.printed, block.masks
    if matches(shown, printed, masks):
        return shown
    if not any("..." in x for x in shown):
        # lines equal but for their masked parts (timings) keep the doc's text
        a, b = [mask(x, masks) for x in shown], [mask(x, masks) for x in printed]
        out = []
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            out += shown[i1:i2] if op == "equal" else printed[j1:j2]
        return out
    out: list[str] = []
    at = 0
    elided = False
    for line in shown:
        if line.strip() == "...":
            out.append(line)
            elided = True
            continue
        found = _find(line, printed, at, masks)
        if found is None:
            found = at if at < len(printed) else None
        if found is None:
            continue
        if not elided:  # lines shown one after the other are printed one after the other
            out += printed[at:found]
        same = matches([line], [printed[found]], masks)
        out.append(line if same else printed[found])
        at = found + 1
        elided = False
    if not elided:
        out += printed[at:]
    return out


def _label(line: str) -> str:
    """A line with its numbers and spacing taken out: the same row of a table or summary."""
    return " ".join(re.sub(r"[-+]?\d+(\.\d+)?", "#", line.lstrip("* ")).split())


def _find(line: str, printed: list[str], start: int, masks) -> int | None:
    for j in range(start, len(printed)):
        if matches([line], [printed[j]], masks):
            return j
    label = _label(line)
    if len(label.replace("#", "")) >= 3:
        for j in range(start, len(printed)):
            if _label(printed[j]) == label:
                return j
    return None
