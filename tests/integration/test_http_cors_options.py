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


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["--port", "21733", "--http-port", "21733"], "--http-port 21733 is the same as --port"),
        (["--http-port", "21734", "--metrics-port", "21734"], "--metrics-port 21734 is the same as --http-port"),
        (["--port", "9999", "--metrics-port", "9999"], "--metrics-port 9999 is the same as --port"),
    ],
)
def test_one_port_for_two_protocols_is_refused_before_listening(argv, error, capsys):
    """s9-break finding 14: ``--http-port`` equal to ``--port`` listened on the line port, then failed the second
    bind with "Address already in use (is another server running?)"."""
    with pytest.raises(SystemExit) as exited:
        cli.main(argv)
    assert exited.value.code == 2
    assert capsys.readouterr().err.endswith(f"sudoku-server: error: {error}: each port serves one protocol\n")


def test_port_0_twice_is_two_free_ports():
    parser = cli.build_parser()
    args = parser.parse_args(["--port", "0", "--http-port", "0"])
    cli.check_http_options(parser, args)  # no SystemExit
