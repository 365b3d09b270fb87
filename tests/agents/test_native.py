"""The agent environment's hot modules run compiled (Cython, where the install found a C
compiler) or as plain Python (``RULEBOOK_PURE_PYTHON=1``, or no compiler): both ways give the
same observations, masks and rewards, step for step, and a build older than its source is never
loaded in its place."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interpreter.agents import native

ROOT = Path(__file__).resolve().parents[2]

# plays seeded random games through the PettingZoo env; prints which modules ran compiled and a
# digest of everything each step showed
PLAY = """
import hashlib, json, random, sys
from interpreter.agents import make_env, native
digest = hashlib.sha256()
steps = 0
for game, players, overlays in json.loads(sys.argv[1]):
    env = make_env(game, players=players, overlays=overlays)
    for seed in (3, 4):
        rng = random.Random(seed)
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            digest.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
            digest.update(repr((agent, reward, terminated, truncated)).encode())
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
            steps += 1
print(json.dumps({"status": native.status(), "digest": digest.hexdigest(), "steps": steps}))
"""

GAMES = [
    ("puerto-rico", 4, []),
    ("puerto-rico", 3, ["nobles", "new-buildings"]),
    ("san-juan", 3, []),
    ("san-juan", 2, ["new-buildings"]),
]


def _play(pure: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    if pure:
        env[native.PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PLAY, json.dumps(GAMES)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_compiled_and_pure_python_play_the_same_games() -> None:
    pure, default = _play(pure=True), _play(pure=False)
    assert set(pure["status"].values()) == {"python"}
    # the default run loads what was built (and is fresh): compiled wherever a build exists
    built = {
        name: native.source_wins(
            native.FOLDER / f"{name}.py", native.extension_of(name), pure=False
        )
        for name in native.COMPILED
    }
    assert default["status"] == {n: "python" if src else "compiled" for n, src in built.items()}
    assert pure["steps"] > 1000
    assert default == {**pure, "status": default["status"]}


def test_a_build_older_than_its_source_is_not_loaded(tmp_path: Path) -> None:
    source, extension = tmp_path / "m.py", tmp_path / "m.so"
    source.write_text("x = 1\n")
    extension.write_bytes(b"")
    past = time.time_ns() - 10**9
    os.utime(source, ns=(past, past))
    assert not native.source_wins(source, extension, pure=False)
    assert native.source_wins(source, extension, pure=True)
    assert native.source_wins(source, None, pure=False)
    os.utime(source, ns=(past + 2 * 10**9, past + 2 * 10**9))  # edited after the build
    assert native.source_wins(source, extension, pure=False)


@pytest.mark.parametrize(
    "name", ["interpreter.agents.features", "interpreter.engine.state", "json", "walk"]
)
def test_the_finder_leaves_every_other_module_to_python(name: str) -> None:
    assert native._Chooser().find_spec(name, None) is None


def test_pure_python_is_asked_for_by_the_environment(monkeypatch) -> None:
    monkeypatch.setenv(native.PURE_ENV, "1")
    spec = native._Chooser().find_spec("interpreter.agents.encoder", None)
    assert spec is not None and spec.origin == str(native.FOLDER / "encoder.py")
    monkeypatch.setenv(native.PURE_ENV, "0")
    spec = native._Chooser().find_spec("interpreter.agents.encoder", None)
    if native.extension_of("encoder") is not None and not native.source_wins(
        native.FOLDER / "encoder.py", native.extension_of("encoder"), pure=False
    ):
        assert spec is None  # Python's own finder loads the build
    else:
        assert spec is not None and spec.origin.endswith("encoder.py")


def test_the_compiled_modules_are_the_ones_pyproject_builds() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    for name in native.COMPILED:
        assert f'name = "interpreter.agents.{name}"' in text
        assert f'sources = ["interpreter/agents/{name}.py"]' in text
        first = (native.FOLDER / f"{name}.py").read_text().splitlines()[0]
        # Python's own semantics for annotated arguments (a str subclass is a str)
        assert first == "# cython: language_level=3, annotation_typing=False"
    assert text.count("[[tool.setuptools.ext-modules]]") == len(native.COMPILED)


def test_the_compiled_modules_lose_no_docstring_examples_to_pytest() -> None:
    # pytest skips their files (pyproject.toml addopts): a compiled module cannot be collected
    # from its .py, so they must hold no examples that would go unrun
    text = (ROOT / "pyproject.toml").read_text()
    for name in native.COMPILED:
        assert f"--ignore=interpreter/agents/{name}.py" in text
        assert ">>>" not in (native.FOLDER / f"{name}.py").read_text()
