"""Ready to publish: the version, shell completion, the licence, and what a release carries.

The sdist and wheel are built the way a release builds them (``python -m build``, in its own
isolated environment), their contents checked, and the wheel installed into a brand-new venv
outside the checkout, where it must play, validate, test a copied scenario and serve a page.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
import venv
import zipfile
from pathlib import Path

import httpx
import pytest

import interpreter
from interpreter.cli.main import COMMAND_BY_NAME, main
from interpreter.load.resources import data_dir

# one xdist worker builds the sdist and the wheel for all these tests: two builds at once in
# the project folder would race on the sdist's staging folder there
pytestmark = pytest.mark.xdist_group("release")

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
DIST = PROJECT["name"].replace("-", "_")
VERSION = interpreter.__version__


def test_version_prints_the_release(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"rulebook {VERSION}"


def _released() -> list[str]:
    """The releases the changelog lists, newest first (its `## X.Y.Z` headings)."""
    changelog = (ROOT / "docs" / "changelog.md").read_text(encoding="utf-8")
    return re.findall(r"^## (\d+\.\d+\.\d+)$", changelog, flags=re.M)


def test_the_version_moves_with_the_changelog():
    """A release is its changelog's newest heading; between releases (an `## Unreleased`
    section above it) the version is the next release's development version, above it."""
    changelog = (ROOT / "docs" / "changelog.md").read_text(encoding="utf-8")
    latest = _released()[0]
    key = [int(x) for x in latest.split(".")]
    if "\n## Unreleased\n" in changelog:
        release, dev, n = VERSION.partition(".dev")
        assert dev and n.isdigit(), f"{VERSION}: not a development version under Unreleased"
        assert [int(x) for x in release.split(".")] > key, f"{VERSION} is not after {latest}"
    else:
        assert VERSION == latest


def test_the_pre_commit_snippet_names_the_latest_release_and_its_tag_exists():
    latest = _released()[0]
    snippet = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    assert f"rev: v{latest}" in snippet
    if (ROOT / ".git").exists():
        tags = subprocess.run(
            ["git", "tag", "--list", "v*"], cwd=ROOT, capture_output=True, text=True
        ).stdout.split()
        # a copy made without tags (an export, `clone --no-tags`) has none at all; one that
        # has tags has every release's, which the pre-commit snippet names
        if tags:
            missing = [f"v{r}" for r in _released() if f"v{r}" not in tags]
            assert not missing, f"git tags missing: {missing} (tags: {tags})"


def test_the_licence_is_mit_in_the_file_and_the_metadata():
    assert PROJECT["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def _completion(shell: str) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "--print-completion", shell],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return run.stdout


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash on this machine")
@pytest.mark.parametrize(
    ("words", "wanted"),
    [
        (["va"], {"validate"}),
        (["s"], {"schema", "serve", "show", "simulate"}),
        (["play", "--wi"], {"--with"}),
        (["validate", "--str"], {"--strict"}),
        (["validate", "rulesets/puerto-rico/rul"], {"rulesets/puerto-rico/ruleset.yaml"}),
    ],
)
def test_bash_completes_commands_flags_and_paths(tmp_path, words, wanted):
    script = tmp_path / "rulebook.bash"
    script.write_text(_completion("bash"), encoding="utf-8")
    line = ["rulebook", *words]
    program = (
        f"source {script}; COMP_WORDS=({' '.join(line)}); COMP_CWORD={len(line) - 1}; "
        f"COMP_LINE='{' '.join(line)}'; COMP_POINT=${{#COMP_LINE}}; _shtab_rulebook; "
        'printf "%s\\n" "${COMPREPLY[@]}"'
    )
    run = subprocess.run(["bash", "-c", program], cwd=ROOT, capture_output=True, text=True)
    assert set(run.stdout.split()) == wanted, run.stderr


def test_zsh_completion_declares_every_command():
    script = _completion("zsh")
    assert script.startswith("#compdef rulebook")
    for name in COMMAND_BY_NAME:
        assert f"{name}:" in script, name
    if shutil.which("zsh"):
        check = subprocess.run(["zsh", "-n"], input=script, capture_output=True, text=True)
        assert check.returncode == 0, check.stderr


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """The sdist and the wheel, built as a release is."""
    out = tmp_path_factory.mktemp("dist")
    # from a copy of the project: the sdist is staged in the folder it is built from, where
    # another test's process may be at work
    source = tmp_path_factory.mktemp("source") / "project"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv*",
            "*.egg-info",
            "__pycache__",
            ".*_cache",
            "build",
            "dist",
            "rulebook_games-*",
        ),
    )
    run = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(source)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    # pure Python: one wheel for every platform and interpreter
    (wheel,) = out.glob(f"{DIST}-{VERSION}-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    return {"sdist": next(out.glob(f"{DIST}-{VERSION}.tar.gz")), "wheel": wheel}


def _shipped_data() -> list[str]:
    """Every data file the engine reads, relative to the project: grammar (with the compiled
    parser), schemas, rulesets."""
    files = [
        p.relative_to(ROOT).as_posix()
        for folder in ("grammar", "schemas", "rulesets")
        for p in sorted((ROOT / folder).rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    ]
    assert "grammar/effects.lark.parser" in files
    return files


def test_the_wheel_carries_the_data_the_static_files_and_the_licence(built):
    names = set(zipfile.ZipFile(built["wheel"]).namelist())
    data = f"{DIST}-{VERSION}.data/data/share/rulebook/"
    for rel in _shipped_data():
        assert data + rel in names, rel
    for static in (ROOT / "interpreter" / "serve" / "static").iterdir():
        assert f"interpreter/serve/static/{static.name}" in names, static.name
    assert "interpreter/py.typed" in names
    assert f"{DIST}-{VERSION}.dist-info/licenses/LICENSE" in names
    metadata = zipfile.ZipFile(built["wheel"]).read(f"{DIST}-{VERSION}.dist-info/METADATA")
    text = metadata.decode("utf-8")
    assert f"Name: {PROJECT['name']}\n" in text
    assert f"Version: {VERSION}\n" in text
    assert "License-Expression: MIT\n" in text
    assert not any(n.startswith(("tests/", "docs/", "benchmarks/")) for n in names)
    # every module as its source, nothing compiled for one platform
    assert "interpreter/agents/encoder.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c", ".pxd"))]


def test_the_sdist_carries_the_sources_the_data_and_the_licence(built):
    with tarfile.open(built["sdist"]) as sdist:
        names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    for rel in [*_shipped_data(), "LICENSE", "README.md", "pyproject.toml"]:
        assert rel in names, rel
    assert "interpreter/engine/state.py" in names
    assert "interpreter/agents/encoder.py" in names


def _venv_bin(folder: Path) -> Path:
    return folder / ("Scripts" if os.name == "nt" else "bin")


def test_the_installed_wheel_works_away_from_the_checkout(built, tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = _venv_bin(env_dir) / "python"
    # (no PYTHONPATH: a checkout on it, with the build's egg-info, reads as installed already)
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(built["wheel"])],
        capture_output=True,
        text=True,
        env=environment,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    rulebook = str(_venv_bin(env_dir) / "rulebook")
    work = tmp_path / "elsewhere"
    work.mkdir()
    environment["XDG_CACHE_HOME"] = str(tmp_path / "cache")

    def run(*words: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [rulebook, *words], cwd=work, env=environment, capture_output=True, text=True
        )

    assert run("--version").stdout.strip() == f"rulebook {VERSION}"
    played = run("play", "puerto-rico", "--players", "3", "--seed", "3", "--quiet", "--json")
    assert played.returncode == 0, played.stderr
    assert '"winner"' in played.stdout.splitlines()[-1]
    # the installed rulesets are where the package says, not in the checkout
    where = subprocess.run(
        [
            str(python),
            "-c",
            "from interpreter.load.resources import data_dir as d;print(d('rulesets'))",
        ],
        cwd=work,
        env=environment,
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert where.startswith(str(env_dir)), where
    assert data_dir("rulesets") != Path(where)
    shutil.copy(ROOT / "examples" / "variants" / "pr-short-game.yaml", work / "house.yaml")
    checked = run("validate", "house.yaml")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "no problems found" in checked.stdout
    shutil.copy(ROOT / "tests" / "scenarios" / "puerto-rico" / "settler.yaml", work / "s.yaml")
    tested = run("test", "s.yaml", "-q")
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "passed" in tested.stdout and "failed" not in tested.stdout
    nothing = run("test")
    assert nothing.returncode == 2 and "tests/scenarios/" in nothing.stderr
    _serves_a_page(rulebook, work, environment, tmp_path)


def _serves_a_page(rulebook: str, work: Path, environment: dict[str, str], tmp: Path) -> None:
    from helpers.server import free_port

    port = free_port()
    server = subprocess.Popen(
        [rulebook, "serve", "--port", str(port), "--db", str(tmp / "t.sqlite3")],
        cwd=work,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/new", timeout=5)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the installed server did not start"
                time.sleep(0.3)
        assert page.status_code == 200 and "Puerto Rico" in page.text
        assert httpx.get(f"http://127.0.0.1:{port}/static/table.js").status_code == 200
    finally:
        server.terminate()
        server.wait(timeout=30)
