"""The libyaml path of the loader gives exactly what ruamel's own parser gives, or steps aside."""

from __future__ import annotations

import subprocess
import warnings
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from interpreter.load import fastyaml, yamlload

ROOT = Path(__file__).resolve().parents[2]


def _every_yaml_file() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "*.yaml", "*.yml"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    files = [ROOT / f for f in listed] or sorted(ROOT.glob("rulesets/**/*.yaml"))
    return [f for f in files if f.is_file()]


def _shape(node: Any) -> Any:
    """The data with every container's position, every key's and item's position, and types."""
    if isinstance(node, CommentedMap):
        lc = node.lc.data or {}
        items = [(type(k).__name__, k, lc.get(k), _shape(v)) for k, v in node.items()]
        return ("map", node.lc.line, node.lc.col, items)
    if isinstance(node, CommentedSeq):
        lc = node.lc.data or {}
        items = [(lc.get(i), _shape(v)) for i, v in enumerate(node)]
        return ("seq", node.lc.line, node.lc.col, items)
    return (type(node).__name__, repr(node))


def _pure(text: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return yamlload._make_yaml().load(text)


def _fast(text: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fastyaml.load_with_events(yamlload._make_yaml(), text)


def test_libyaml_is_there() -> None:
    # without it every file silently takes the slow path: the dependency must bring it
    assert fastyaml.CParser is not None


def test_every_yaml_file_of_the_repository_loads_alike_on_both_paths() -> None:
    fast = 0
    for path in _every_yaml_file():
        text = path.read_text(encoding="utf-8-sig", errors="replace")
        if not fastyaml.plain_enough(text):
            continue
        try:
            quick = _fast(text)
        except Exception:  # noqa: BLE001 - the loader then takes ruamel's path
            continue
        assert _shape(quick) == _shape(_pure(text)), path
        fast += 1
    assert fast >= 100  # the rulesets, overlays, examples and scenarios take the fast path


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",  # anchors and aliases
        "a: !!str 1\n",  # tags
        "%YAML 1.1\n---\na: 1\n",  # a directive
        "a: 1\n---\nb: 2\n",  # two documents
        "a:\n\t- 1\n",  # a tab
        "a: [1, 2\n",  # broken
        "a: 1\na: 2\n",  # a duplicate key
    ],
)
def test_unusual_texts_take_ruamels_path_and_get_its_message(text: str) -> None:
    quick_ok = True
    try:
        if fastyaml.plain_enough(text):
            _fast(text)
        else:
            quick_ok = False
    except Exception:  # noqa: BLE001
        quick_ok = False
    assert not quick_ok
    # and the loader still answers as ruamel's path does
    try:
        expected: Any = _shape(_pure(text))
    except Exception as err:  # noqa: BLE001
        expected = type(err)
    try:
        got: Any = _shape(yamlload.load_yaml_text(text, "t.yaml").data)
    except Exception as err:  # noqa: BLE001
        got = type(err)
    assert (got is yamlload.RulesError) or got == expected


def test_scalars_positions_and_styles_agree() -> None:
    text = (
        "name: démo — x\n"
        "n: 0x1F\nf: 1.50\nb: yes\nd: 2024-01-01\nq: 'it''s'\nnull-ish: ~\n"
        "lit: |\n  one\n  two\nfold: >-\n  a\n  b\n"
        "list: [a, {b: 1}, [c]]\nnested:\n  - k: v\n    w: [1, 2]\n"
    )
    assert fastyaml.plain_enough(text)
    assert _shape(_fast(text)) == _shape(_pure(text))
