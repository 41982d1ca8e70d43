"""``--http-cors off`` goes alone: with an origin the server refuses to start (break-session finding: it was
accepted, and off silently won)."""

from __future__ import annotations

import pytest

from sudoku_server.app import cli


@pytest.mark.parametrize(
    ("argv", "origin"),
    [
        (["--http-cors", "off", "--http-cors", "https://example.org"], "https://example.org"),
        (["--http-cors", "https://a.example", "--http-cors", "OFF"], "https://a.example"),
    ],
)
def test_http_cors_off_with_an_origin_refuses_to_start(capsys, argv, origin):
    with pytest.raises(SystemExit) as exited:
        cli.main(["--http-port", "0", *argv])
    assert exited.value.code == 2
    assert capsys.readouterr().err.endswith(
        f"sudoku-server: error: --http-cors off (no CORS headers) cannot go with an origin (--http-cors {origin}):"
        " give the origins, or off alone\n"
    )


@pytest.mark.parametrize(
    ("argv", "origins"),
    [
        ([], ("*",)),
        (["--http-cors", "off"], ()),
        (["--http-cors", "off", "--http-cors", "off"], ()),
        (
            ["--http-cors", "https://a.example", "--http-cors", "https://b.example"],
            ("https://a.example", "https://b.example"),
        ),
    ],
)
def test_http_cors_alone_or_origins_start(argv, origins):
    parser = cli.build_parser()
    args = parser.parse_args(argv)
    cli.check_http_options(parser, args)
    assert cli.config_from_args(args).http_cors == origins


def test_help_says_off_goes_alone(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "'off' (alone: not with an origin) for no CORS headers" in " ".join(capsys.readouterr().out.split())
