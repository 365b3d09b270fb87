"""Where the project's data folders (grammar/, schemas/, rulesets/) are.

In a checkout, or an editable install of one, they sit beside the package. A built wheel
(``pip install .`` or from a repository URL) installs them under ``<prefix>/share/rulebook/``
(see ``[tool.setuptools.data-files]`` in pyproject.toml).
"""

from __future__ import annotations

import sys
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2]


def data_dir(name: str) -> Path:
    """The folder ``name`` of the project: the checkout's when present, else the installed one.

    >>> data_dir("grammar").joinpath("effects.lark").is_file()
    True
    """
    here = _CHECKOUT / name
    if here.is_dir():
        return here
    installed = Path(sys.prefix) / "share" / "rulebook" / name
    return installed if installed.is_dir() else here
