"""Claims of docs/serve.md's security section that no other test shows, and that section's
own promise: each claim names a test that exists. Tokens are 32 random bytes compared in
constant time, an upload waits for one of two checking workers and is answered 503 when none
is free in time, and ``X-Forwarded-For`` is believed from ``--forwarded-allow-ips`` only (so a
visitor cannot forge its way past the quotas, and behind a proxy each visitor has its own)."""

from __future__ import annotations

import base64
import re
import secrets
import signal

import httpx
import pytest

from helpers.server import ROOT, free_port, start_server
from interpreter.serve import sandbox, table as table_module
from interpreter.serve.tables import ServeError

GOOD = b"overlay: mine\nextends: san-juan\n"
SAN_JUAN = {"game": "san-juan", "players": 2, "seats": ["human", "human"]}


def test_tokens_are_32_random_bytes_compared_in_constant_time(hub, monkeypatch):
    table = hub.create("san-juan", 2, ["human", "human"])
    tokens = [*table.tokens, table.creator]
    assert all(len(base64.urlsafe_b64decode(t + "=")) == 32 for t in tokens)
    assert len(set(tokens)) == len(tokens)
    compared: list[tuple[bytes, bytes]] = []
    real = secrets.compare_digest

    def compare_digest(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(table_module.secrets, "compare_digest", compare_digest)
    guess = table.tokens[1][:-1] + "x"
    with pytest.raises(ServeError, match="not valid for this table"):
        table.seat_of(guess)
    # every seat's token was compared with the guess, none by ==, which stops at the first
    # differing byte and so tells how much of a guess was right
    assert sorted(compared) == sorted((t.encode(), guess.encode()) for t in table.tokens)
    compared.clear()
    assert table.is_creator(table.creator)
    assert compared == [(table.creator.encode(), table.creator.encode())]


def test_an_upload_waits_for_one_of_two_workers_and_is_a_503_when_none_is_free(client, monkeypatch):
    monkeypatch.setenv("RULEBOOK_UPLOAD_SECONDS", "0.05")
    assert sandbox.MAX_WORKERS == 2
    taken = [sandbox._TURNS.acquire(timeout=5) for _ in range(sandbox.MAX_WORKERS)]
    try:
        assert all(taken)  # two checks are running (held here): the next one waits its turn
        response = client.post("/api/overlays?name=mine.yaml", content=GOOD)
    finally:
        for _ in taken:
            sandbox._TURNS.release()
    assert response.status_code == 503
    assert "the server is checking other uploads; try again" in response.json()["error"]


def _made(base: str, visitor: str, source: str) -> int:
    """The status of a new table asked for from the address ``source``, by a client that says
    it forwards ``visitor``."""
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(transport=transport, timeout=30) as client:
        headers = {"X-Forwarded-For": visitor}
        return client.post(f"{base}/api/tables", json=SAN_JUAN, headers=headers).status_code


def test_x_forwarded_for_is_believed_from_the_allowed_proxies_only(tmp_path):
    """One new table per address. Behind the allowed proxy (127.0.0.1, the default) each
    visitor it names has its own quota; from another address (127.0.0.2, loopback too) the
    header is ignored and every request counts against that address, whatever it names."""
    port = free_port()
    server = start_server(tmp_path / "tables.sqlite3", port, "--max-tables", "1")
    try:
        base = f"http://127.0.0.1:{port}"
        assert _made(base, "203.0.113.1", source="127.0.0.1") == 201
        assert _made(base, "203.0.113.1", source="127.0.0.1") == 429
        assert _made(base, "203.0.113.2", source="127.0.0.1") == 201  # another visitor
        assert _made(base, "203.0.113.3", source="127.0.0.2") == 201
        assert _made(base, "203.0.113.4", source="127.0.0.2") == 429  # a forged visitor
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


SERVE_DOC = ROOT / "docs" / "serve.md"


def _security_section() -> str:
    text = SERVE_DOC.read_text(encoding="utf-8")
    start = text.index("\n## Security\n")
    return text[start : text.index("\n## ", start + 1)]


def test_each_claim_of_the_security_section_names_a_test_that_exists():
    section = _security_section()
    # each claim: a bullet of the list, a row of the limits table
    bullets = re.findall(r"^- \*\*.*?(?=^- |^\*\*|\Z)", section, re.M | re.S)
    rows = [line for line in section.splitlines() if re.match(r"\| [a-z]", line)]
    rows = [row for row in rows if not row.startswith(("| what ", "| party "))]
    assert len(bullets) >= 5 and len(rows) >= 9
    for claim in bullets + rows[4:]:  # the parties' rows are shown by the paragraph below them
        assert "::test_" in claim, f"names no test: {claim[:80]}"
    named = re.findall(r"`((?:tests/[\w/]+/)?\w+\.py)(?:::(\w+))?`", section)
    assert len(named) >= 30
    for path, name in named:
        file = ROOT / path if path.startswith("tests/") else ROOT / "tests" / "serve" / path
        assert file.is_file(), path
        if name:
            assert re.search(rf"^(async )?def {name}\(", file.read_text(), re.M), f"{path}::{name}"
