"""Every page of a real ``rulebook serve``, seat pages first of all, tells the browser to keep
no copy, send no referrer, run only the server's own scripts and show in no frame; API answers
that carry tokens or hidden information are not cached either; and the pages hold no inline
script, so the policy costs them nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from helpers.server import free_port, start_server


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    process = start_server(tmp_path_factory.mktemp("headers") / "tables.sqlite3", port)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=30)


def _directives(policy: str) -> dict[str, list[str]]:
    out = {}
    for part in policy.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


def _check_page(response: httpx.Response) -> None:
    headers = response.headers
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["cache-control"] == "no-store"
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    policy = _directives(headers["content-security-policy"])
    assert policy["default-src"] == ["'self'"] and policy["frame-ancestors"] == ["'none'"]
    assert policy["script-src"] == ["'self'"]  # no inline script, no eval
    assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"]
    if "text/html" in headers.get("content-type", ""):
        html = response.text
        # nothing the policy would block: every script is a file of this server
        assert not re.search(r"<script(?![^>]*\bsrc=\"/static/)", html), html
        assert not re.search(r"\son[a-z]+\s*=", html)
        assert "javascript:" not in html and "<style" not in html


def test_every_page_and_every_seat_page_sends_the_security_headers(base):
    table = httpx.post(
        f"{base}/api/tables",
        json={"game": "san-juan", "players": 2, "seats": ["human", "random"]},
        timeout=30,
    )
    assert table.status_code == 201
    _check_page(table)  # the creator's answer: seat tokens
    info = table.json()
    seat_page = httpx.get(f"{base}{info['seats'][0]['url']}")
    assert seat_page.status_code == 200 and "data-token" in seat_page.text
    _check_page(seat_page)
    cookies = {"rulebook_tables": f"{info['id']}.{info['creator']}"}
    pages = [
        httpx.get(f"{base}/", cookies=cookies),  # the lobby with the creator's seat links
        httpx.get(f"{base}/new"),
        httpx.get(f"{base}/t/{info['id']}"),
        httpx.get(f"{base}/replay"),
        httpx.get(f"{base}/replay", params={"table": info["id"]}),
        httpx.get(f"{base}/t/{info['id']}", params={"token": "wrong"}),  # a 403 page
        httpx.get(f"{base}/t/nothing-here"),  # a 404 page
    ]
    for page in pages:
        _check_page(page)
    assert "seat-link" in pages[0].text

    # the form's "Table ready" page lists every seat link
    ready = httpx.post(
        f"{base}/new",
        files={
            "game": (None, "san-juan"),
            "players": (None, "2"),
            "seat0": (None, "human"),
            "seat1": (None, "human"),
            "speed": (None, "2"),
        },
    )
    assert ready.status_code == 201 and "Table ready" in ready.text
    _check_page(ready)
    assert '<script src="/static/forms.js" defer></script>' in ready.text

    token = info["seats"][0]["token"]
    for path in ("state", "save"):
        answer = httpx.get(f"{base}/api/tables/{info['id']}/{path}", params={"token": token})
        assert answer.status_code == 200
        _check_page(answer)
    links = httpx.get(
        f"{base}/api/tables/{info['id']}/links", headers={"X-Rulebook-Creator": info["creator"]}
    )
    assert links.status_code == 200
    _check_page(links)


def test_the_pages_scripts_are_files_of_the_server(base):
    for name in ("table.js", "forms.js", "style.css"):
        response = httpx.get(f"{base}/static/{name}")
        assert response.status_code == 200
        assert response.headers["x-content-type-options"] == "nosniff"
    form = httpx.get(f"{base}/new").text
    assert '<script src="/static/forms.js" defer></script>' in form
    assert 'id="game"' in form and 'id="players"' in form  # what forms.js drives
