"""A model file read by path is read again when it is written again (training writes its model
every iteration, and the next iteration's search must play the new one), and the older reading
is dropped: a long training run in one process holds one model per file, not one per write."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np

from interpreter.learn import model_spaces
from interpreter.learn.model import load_model, save_model
from interpreter.learn.model_spaces import load_cached

SHIPPED = Path(__file__).resolve().parents[2] / "examples" / "models" / "san-juan-3p.npz"


def test_a_rewritten_model_is_read_again_and_the_old_reading_dropped(tmp_path: Path) -> None:
    path = tmp_path / "bot.npz"
    shutil.copyfile(SHIPPED, path)
    first = load_cached(str(path))
    assert load_cached(str(path)) is first  # read once while the file stays as it is
    net, header = load_model(path)
    net.params[next(iter(net.params))] += 1.0  # a new iteration's weights
    save_model(path, net, header)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # a coarse clock
    second = load_cached(str(path))
    assert second is not first
    key = next(iter(second.net.params))
    assert not np.array_equal(second.net.params[key], first.net.params[key])
    mine = [k for k in model_spaces._CACHE if k[0] == os.path.abspath(path)]
    assert len(mine) == 1 and model_spaces._CACHE[mine[0]] is second
