"""rulebook simulate --report FILE.png: one matplotlib figure of the report's charts."""

from __future__ import annotations

import struct
import sys

import pytest

import interpreter.cli.simulate_cmd as simulate_cmd
from interpreter.cli.main import main
from interpreter.diagnostics.errors import ConfigError
from interpreter.simulate.batch import SimSpec, run_simulation
from interpreter.simulate.figures import bin_counts
from interpreter.simulate.report_html import (
    REPORT_SUFFIXES,
    check_report_path,
    write_report,
)
from interpreter.simulate.report_png import MATPLOTLIB_MISSING
from interpreter.simulate.summary import result_document

PR = "puerto-rico"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MESSAGE = (
    "--report FILE.png needs matplotlib: pip install 'rulebook-games[plot]' (in a checkout: "
    "pip install -e '.[plot]'), or give a .html file name"
)


@pytest.fixture(scope="module")
def doc():
    """A real result document: a few games through the engine, two kinds of bot."""
    seats = ("pr-heuristic", "random", "random", "random")
    return result_document(run_simulation(SimSpec(PR, 4, seats=seats, games=5, seed=7), jobs=1))


def _png_size(data: bytes) -> tuple[int, int]:
    """Width and height from the IHDR chunk, which a PNG must start with."""
    assert data[:8] == PNG_SIGNATURE
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    return struct.unpack(">II", data[16:24])


def test_png_report_is_a_picture_of_plausible_size(tmp_path, doc):
    path = tmp_path / "rich.png"
    write_report(str(path), doc)
    data = path.read_bytes()
    width, height = _png_size(data)
    assert width == 1200  # 12 inches at 100 dpi
    assert 1000 <= height <= 4000  # a tall page of panels, not a thumbnail or a runaway
    assert 30_000 < len(data) < 3_000_000
    assert data.endswith(b"IEND\xaeB`\x82")


def test_same_document_same_bytes(tmp_path, doc):
    a, b = tmp_path / "a.png", tmp_path / "b.PNG"  # the suffix is read in any case
    write_report(str(a), doc)
    write_report(str(b), doc)
    assert a.read_bytes() == b.read_bytes()
    assert b"matplotlib" not in a.read_bytes()  # no "Software" tag naming the version


def test_html_still_chosen_by_suffix(tmp_path, doc):
    for name in ("r.html", "r.htm"):
        write_report(str(tmp_path / name), doc)
        assert (tmp_path / name).read_text().startswith("<!DOCTYPE html>")
    assert REPORT_SUFFIXES == (".html", ".htm", ".png")


def test_unknown_suffix_is_a_config_error(tmp_path, doc):
    with pytest.raises(ConfigError, match=r"\.html, \.htm or \.png"):
        write_report(str(tmp_path / "r.pdf"), doc)
    with pytest.raises(ConfigError):
        check_report_path("r.svg")
    assert not (tmp_path / "r.pdf").exists()


def test_zero_games_draws_empty_panels(tmp_path):
    empty = result_document(
        run_simulation(SimSpec(PR, 3, seats=("random",) * 3, games=0, seed=1), jobs=1)
    )
    path = tmp_path / "empty.png"
    write_report(str(path), empty)
    width, height = _png_size(path.read_bytes())
    assert width == 1200 and height > 500


def test_missing_matplotlib_says_how_to_get_it(tmp_path, monkeypatch, doc):
    assert MATPLOTLIB_MISSING == MESSAGE
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` now fails
    path = tmp_path / "r.png"
    with pytest.raises(ConfigError) as err:
        write_report(str(path), doc)
    assert str(err.value) == MESSAGE
    assert not path.exists()
    with pytest.raises(ConfigError, match=r"pip install -e '\.\[plot\]'"):
        check_report_path(str(path))
    check_report_path(str(tmp_path / "r.html"))  # the page needs nothing extra
    write_report(str(tmp_path / "r.html"), doc)
    assert (tmp_path / "r.html").exists()


def test_cli_writes_png_report(tmp_path, monkeypatch, capsys):
    # Until simulate_cmd imports REPORT_SUFFIXES from the report module it has its own
    # HTML-only tuple; afterwards this line changes nothing.
    monkeypatch.setattr(simulate_cmd, "REPORT_SUFFIXES", REPORT_SUFFIXES, raising=False)
    out, picture = tmp_path / "r.json", tmp_path / "r.png"
    args = ["simulate", PR, "-p", "3", "-n", "3", "-j", "1", "--seed", "5"]
    assert main([*args, "--out", str(out), "--report", str(picture), "--quiet"]) == 0
    assert "r.png" in capsys.readouterr().err
    assert _png_size(picture.read_bytes())[0] == 1200


def test_bin_counts_whole_numbers_get_whole_width_bins():
    lo, width, counts = bin_counts([3, 4, 4, 9], 3)
    assert (lo, width, counts) == (3, 3, [3, 0, 1])
    lo, width, counts = bin_counts([0.5, 1.0], 2)
    assert (lo, width, counts) == (0.5, 0.25, [1, 1])
