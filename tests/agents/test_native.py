"""The agent environment's hot modules run compiled (Cython, where the install found a C
compiler) or as plain Python (``RULEBOOK_PURE_PYTHON=1``, or no compiler): both ways give the
same observations, masks and rewards, step for step, and a build older than its source is never
loaded in its place."""

from __future__ import annotations

import importlib.machinery
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
    kind = "python" if native.sources_win(pure=False) else "compiled"
    assert default["status"] == dict.fromkeys(native.COMPILED, kind)
    assert pure["steps"] > 1000
    assert default == {**pure, "status": default["status"]}


def test_the_builds_load_all_together_and_only_where_none_is_older_than_its_sources(
    tmp_path: Path,
) -> None:
    """A compiled module reads another's classes by their C layout (.pxd): all builds, or
    all sources; a build older than its source or its layout, or a missing one, means the
    sources."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    past = time.time_ns() - 10**9
    for name in ("a", "b"):
        for file in (f"{name}.py", f"{name}{suffix}"):
            (tmp_path / file).write_text("")
            os.utime(tmp_path / file, ns=(past, past))
    (tmp_path / "b.pxd").write_text("")
    os.utime(tmp_path / "b.pxd", ns=(past, past))

    def wins(pure: bool = False) -> bool:
        return native.sources_win(tmp_path, pure=pure, names=("a", "b"))

    assert not wins()
    assert wins(pure=True)
    later = past + 2 * 10**9
    os.utime(tmp_path / "b.pxd", ns=(later, later))  # a layout edited after the build
    assert wins()
    os.utime(tmp_path / "b.pxd", ns=(past, past))
    os.utime(tmp_path / "a.py", ns=(later, later))  # a source edited after the build
    assert wins()
    os.utime(tmp_path / "a.py", ns=(past, past))
    (tmp_path / f"a{suffix}").unlink()  # no build
    assert wins()


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
    if not native.sources_win(pure=False):
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


def test_a_mask_is_a_new_writable_array_and_an_action_past_its_end_is_an_error():
    import numpy as np

    from interpreter.agents.env import mask_of

    zeros = np.zeros(6, np.int8)
    first = mask_of({1: "a", 4: "b"}, zeros)
    first[0] = 9  # the caller's own array: the next mask and the template are untouched
    assert mask_of({2: "c"}, zeros).tolist() == [0, 0, 1, 0, 0, 0]
    assert not zeros.any() and first.dtype == np.int8
    with pytest.raises(IndexError):
        mask_of({6: "past the end"}, zeros)


def test_a_feature_moves_in_place_and_never_past_the_vector():
    from array import array

    from interpreter.agents.refill import add

    vec = array("f", [0.0, 0.5, 0.0])
    add(vec, 1, 2)
    add(vec, 2, -3)
    assert vec.tolist() == [0.0, 2.5, -3.0]
    for outside in (3, -4):
        with pytest.raises(IndexError):
            add(vec, outside, 1)
    assert vec.tolist() == [0.0, 2.5, -3.0]


def test_a_module_knows_whether_it_runs_as_its_build():
    from interpreter.agents import encoder, env, refill

    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    assert native.is_build(f"/x/refill{suffix}")
    assert not native.is_build("/x/refill.py") and not native.is_build("/x/refill.pyc")
    status = native.status()
    for module in (encoder, env, refill):
        assert module._COMPILED == (status[module.__name__.rpartition(".")[2]] == "compiled")
