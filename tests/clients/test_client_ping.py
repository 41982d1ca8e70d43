"""sudoku-client --ping [--proxy-header]: the health probe of the deployment recipes (issue 13)."""

from __future__ import annotations

import signal
import socket
import time

import pytest

from tests.support.clienttools import address_args, run_client
from tests.support.servers import start_server_process, stop_server_process

#: The installed client (the package importable) and the single file alone.
WAYS = pytest.mark.parametrize("standalone", [False, True], ids=["package", "standalone"])


@WAYS
def test_ping_pong_exits_0(server_address, standalone):
    result = run_client(*address_args(server_address), "--ping", standalone=standalone)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"PONG\n", b"")


@WAYS
def test_ping_through_a_proxy_protocol_port(standalone):
    proc, host, port = start_server_process("--proxy-protocol", "--trusted-proxy", "127.0.0.1/32", "--drain-grace", "3")
    try:
        with_header = run_client("--host", host, "--port", str(port), "--ping", "--proxy-header", standalone=standalone)
        without = run_client("--host", host, "--port", str(port), "--ping", standalone=standalone)
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        draining = run_client("--host", host, "--port", str(port), "--ping", "--proxy-header", standalone=standalone)
    finally:
        stop_server_process(proc)
    assert (with_header.returncode, with_header.stdout) == (0, b"PONG\n")
    # issue 17: the port says why (it used to close without a word).
    refused = "ERROR proxy no PROXY protocol header; this port takes connections only through its load balancer"
    assert (without.returncode, without.stdout) == (2, refused.encode() + b"\n")
    assert without.stderr == b"sudoku-client: %s:%d answered %r to PING\n" % (host.encode(), port, refused)
    assert draining.returncode == 1
    assert draining.stdout == b"ERROR draining server shutting down, use another\n"


@WAYS
def test_ping_a_closed_port_exits_2(standalone):
    with socket.socket() as reserved:
        reserved.bind(("127.0.0.1", 0))
        port = reserved.getsockname()[1]
        result = run_client("--host", "127.0.0.1", "--port", str(port), "--ping", standalone=standalone)
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr == b"sudoku-client: cannot ping 127.0.0.1:%d: Connection refused\n" % port
