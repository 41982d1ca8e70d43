"""The web page's files over the HTTP port: ``/`` is ``index.html`` and ``/static/...`` the package's
``web/static`` directory, whether or not it exists yet (its files are the page's, built in another part)."""

from __future__ import annotations

from sudoku_server.net import http_app
from tests.support.httptools import afetch, running_http_server


async def test_page_and_static_files_from_the_directory(tmp_path, monkeypatch):
    (tmp_path / "index.html").write_text("<!doctype html><title>sudoku</title>\n")
    (tmp_path / "app.js").write_text("export const x = 1;\n")
    monkeypatch.setattr(http_app, "static_directory", lambda: tmp_path)
    async with running_http_server() as (server, port):
        page = await afetch(port, "GET", "/")
        assert (page.status, page.body) == (200, b"<!doctype html><title>sudoku</title>\n")
        assert page.headers["content-type"].startswith("text/html")
        script = await afetch(port, "GET", "/static/app.js")
        assert (script.status, script.body) == (200, b"export const x = 1;\n")
        assert "javascript" in script.headers["content-type"]
        for path in ("/static/nothing.js", "/static/../index.html", "/static/%2e%2e/%2e%2e/pyproject.toml"):
            reply = await afetch(port, "GET", path)
            assert reply.status == 404, path


async def test_no_page_directory_yet(tmp_path, monkeypatch):
    monkeypatch.setattr(http_app, "static_directory", lambda: tmp_path / "missing")
    async with running_http_server() as (server, port):
        page = await afetch(port, "GET", "/")
        assert (page.status, page.body) == (404, b"the web page is not installed; the API is at /api/v1/\n")
        reply = await afetch(port, "GET", "/static/app.js")
        assert (reply.status, reply.json) == (
            404,
            {"error": {"code": "command", "message": "no such path", "line": None}},
        )
        assert (await afetch(port, "GET", "/healthz")).status == 200
