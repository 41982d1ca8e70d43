"""HAProxy, for real, on loopback, in front of two servers (issue 13; deploy/haproxy.cfg).

Each test renders ``deploy/haproxy.cfg`` with free loopback ports, its own
stats socket and log target (stderr), keeping every timing value and option
of the recipe, starts ``haproxy -f CFG -db`` in the foreground and two
servers ``python3 -m sudoku_server --proxy-protocol --drain-grace 2``, and
sends requests through HAProxy: one connection per puzzle (norvig top95,
each answer compared with ``puzzles/norvig_top95.expected``). Which server
answered a request is read from the servers' own logs: each logs the
client's address and port from the PROXY header, so a request is known by
its client socket's port. HAProxy's state (a server DOWN, retries and
redispatches) comes from its stats socket (``show stat``), polled every
20 ms; its log lines (``option tcplog`` on stderr) are only a cross-check,
since HAProxy drops a log line rather than wait for a slow reader.

Skipped when the ``haproxy`` binary is missing (Debian package ``haproxy``;
``.ci/run`` installs it). Health checks are HAProxy's own ``tcp-check``
(``PING`` -> ``PONG``), not the client.
"""

from __future__ import annotations

import collections
import re
import signal
import subprocess
import time

import pytest

from tests.support.balancers import (
    CLIENTS,
    DRAIN_GRACE,
    HAPROXY,
    LOCAL_RECIPE,
    RECIPE,
    SHUTDOWN_GRACE,
    Load,
    ask_concurrently,
    describe,
    needs_haproxy,
    recipe_commands,
    render_config,
)

# -- the recipe itself ---------------------------------------------------------


@needs_haproxy
@pytest.mark.parametrize("recipe", [RECIPE, LOCAL_RECIPE], ids=["haproxy.cfg", "haproxy-local.cfg"])
def test_the_recipe_as_shipped_is_valid_haproxy_configuration(recipe):
    result = subprocess.run([HAPROXY, "-c", "-f", str(recipe)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_rendered_configuration_keeps_every_timing_and_check_setting(tmp_path):
    recipe = RECIPE.read_text()
    rendered = render_config(recipe, 1234, [("a", 1), ("b", 2)], tmp_path / "s.sock")
    kept = [
        line
        for line in recipe.splitlines()
        if re.match(r"\s*(timeout|retries|option|balance|tcp-check|default-server|mode)\b", line)
    ]
    assert len(kept) >= 12
    for line in kept:
        assert line in rendered.splitlines(), line
    assert "inter 500ms fastinter 250ms downinter 1s fall 2 rise 2 send-proxy check-send-proxy" in rendered
    assert "    server a 127.0.0.1:1\n    server b 127.0.0.1:2\n" in rendered
    assert "10.0.0.11" not in rendered and "daemon" not in rendered


# -- HAProxy in front of two servers -------------------------------------------------


@needs_haproxy
@pytest.mark.parametrize("proxy_option", ["send-proxy", "send-proxy-v2"])
def test_requests_are_split_and_each_server_logs_the_clients_own_address(rig, proxy_option):
    s1, s2 = rig.servers("s1", "s2")
    proxy = rig.haproxy([s1, s2], proxy_option)
    results = ask_concurrently(proxy.port, 24)
    assert len(results) == 24 and all(r.ok for r in results), describe(results)
    clients = {r.local_port for r in results}
    deadline = time.monotonic() + 10
    while len(s1.client_ports()) + len(s2.client_ports()) < 24 and time.monotonic() < deadline:
        time.sleep(0.05)
    on_s1, on_s2 = set(s1.client_ports()), set(s2.client_ports())
    # The address each server logged is the client's own (its port is the
    # client socket's, not HAProxy's outgoing one): it came in the PROXY header.
    assert on_s1 | on_s2 == clients and not on_s1 & on_s2, (sorted(clients), s1.log, s2.log)
    assert len(on_s1) >= 2 and len(on_s2) >= 2, (len(on_s1), len(on_s2))  # leastconn: by load, not turns
    # HAProxy's own log agrees on which server took each connection (for the lines it did not drop).
    # Its log reaches us through a watcher thread, and HAProxy drops lines under load (5 of 24 seen
    # beside busy processes): wait for them a while, then hold the ones that came.
    served = {"s1": on_s1, "s2": on_s2}
    deadline = time.monotonic() + 5
    while len(proxy.sessions()) < 24 and time.monotonic() < deadline:
        time.sleep(0.05)
    logged = {port: server for port, (server, _) in proxy.sessions().items() if port in clients}
    assert logged and all(port in served[server] for port, server in logged.items()), proxy.log


@needs_haproxy
@pytest.mark.parametrize("workers", [1, 2], ids=["one-process", "workers-2"])
def test_sigterm_drains_one_server_with_no_answer_lost(rig, workers, wallclock):
    s1, s2 = rig.servers("s1", "s2", extra=("--workers", str(workers)))
    proxy = rig.haproxy([s1, s2])
    load = Load(proxy.port)
    time.sleep(1.0)
    signalled = time.monotonic()
    s1.proc.send_signal(signal.SIGTERM)
    s1.proc.wait(DRAIN_GRACE + SHUTDOWN_GRACE + 1 + 2)
    exited = time.monotonic()
    time.sleep(0.5)  # requests still arrive after the server is gone
    requests = load.stop()
    in_flight = load.in_flight(signalled)

    down_at = proxy.down_at("s1", timeout=1)
    ((drain_at, _),) = s1.wait_for(r"draining for 2 s: PING answers ERROR draining", timeout=1)
    ((closed_at, _),) = s1.wait_for(r"stopped accepting", timeout=1)
    on_s1 = s1.served([])  # s1 has exited: its log is complete
    after = [r for r in requests if r.started >= signalled]
    summary = (
        f"{len(requests)} requests, {len(in_flight)} in flight at SIGTERM"
        f" ({sum(r.local_port in on_s1 for r in in_flight)} on s1),"
        f" {len(after)} sent after it ({sum(r.local_port in on_s1 for r in after)} to s1 while it drained);"
        f" s1 marked DOWN {down_at - signalled:.2f} s after SIGTERM,"
        f" listener closed at {closed_at - signalled:.2f} s, exit at {exited - signalled:.2f} s"
    )
    print(f"s1 with --workers {workers}: {summary}")
    assert all(r.ok for r in requests), describe(requests) + "\n" + summary
    assert len(in_flight) >= CLIENTS - 4, summary
    assert len(after) >= CLIENTS, summary
    assert s1.proc.returncode == 0, s1.log
    wallclock.below(drain_at - signalled, 0.5, "HAProxy sees the drain")
    # HAProxy took it out within its drain grace, before it stopped accepting.
    assert down_at - signalled < DRAIN_GRACE, summary
    assert down_at < closed_at, summary
    assert exited - signalled <= DRAIN_GRACE + SHUTDOWN_GRACE + 1, summary
    assert s2.proc.poll() is None


@needs_haproxy
def test_sigkill_of_one_server_new_requests_are_still_answered(rig):
    s1, s2 = rig.servers("s1", "s2")
    proxy = rig.haproxy([s1, s2])
    load = Load(proxy.port)
    time.sleep(1.0)
    s2.proc.send_signal(signal.SIGKILL)
    s2.proc.wait(5)
    killed = time.monotonic()
    down_at = proxy.down_at("s2", timeout=5)
    time.sleep(0.5)
    requests = load.stop()

    before = [r for r in requests if r.started < killed]
    after = [r for r in requests if r.started >= killed]
    lost = [r for r in before if not r.ok]
    on_s1 = s1.served(after)
    backend = proxy.stat()["BACKEND"]
    summary = (
        f"{len(requests)} requests: {len(before)} sent before SIGKILL ({len(lost)} lost, in flight on s2),"
        f" {len(after)} after it; HAProxy retried {backend['wretr']} connection(s) and redispatched"
        f" {backend['wredis']}; s2 marked DOWN {down_at - killed:.2f} s after it died"
    )
    print(summary)
    # Only connections that were open on the killed server may fail. The client
    # ports wrap around in a long run: a lost request's port may come back for
    # a later request s1 served, so s1 may log a port no more often than
    # answered requests had it.
    logged = collections.Counter(s1.client_ports())
    answered = collections.Counter(r.local_port for r in requests if r.ok)
    assert not any(logged[r.local_port] > answered[r.local_port] for r in lost), describe(before) + "\n" + summary
    assert all(r.ok for r in after), describe(after) + "\n" + summary
    assert len(after) >= CLIENTS, summary
    assert all(r.local_port in on_s1 for r in after), summary
    # Connections sent to s2 before HAProxy saw it down were retried on s1.
    assert int(backend["wredis"]) > 0, summary
    assert down_at - killed < DRAIN_GRACE, summary


# -- the one-machine recipe (issue 17) --------------------------------------------------


def test_the_local_recipe_keeps_every_setting_of_the_main_one():
    recipe, local = RECIPE.read_text(), LOCAL_RECIPE.read_text()
    settings = [
        line
        for line in recipe.splitlines()
        if re.match(r"\s*(timeout|retries|option|balance|tcp-check|default-server|mode)\b", line)
    ]
    assert len(settings) >= 12
    for line in settings:
        assert line in local.splitlines(), line
    configured = [line.split() for line in local.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert ["bind", "127.0.0.1:9999"] in configured
    assert ["server", "s1", "127.0.0.1:10001"] in configured and ["server", "s2", "127.0.0.1:10002"] in configured
    assert not any(words[0] in ("user", "group", "daemon", "chroot") for words in configured)
    assert "10.0.0." not in "\n".join(" ".join(words) for words in configured)


def test_every_recipe_server_command_sets_a_trusted_proxy():
    from sudoku_server.app.cli import build_parser, check_proxy_options

    local = recipe_commands(LOCAL_RECIPE.read_text())
    assert [command[command.index("--port") + 1] for command in local] == ["10001", "10002"]
    for recipe, trusted in ((LOCAL_RECIPE, ["127.0.0.1/32"]), (RECIPE, ["10.0.0.10/32"])):
        commands = recipe_commands(recipe.read_text())
        assert commands, recipe
        for command in commands:
            parser = build_parser()
            args = parser.parse_args(command[3:] if command[0] == "python3" else command[1:])
            check_proxy_options(parser, args)  # exits (fails the test) on --proxy-protocol without a trusted proxy
            assert args.proxy_protocol and [str(n) for n in args.trusted_proxy] == trusted, command


@needs_haproxy
def test_the_local_recipe_in_front_of_its_two_servers(rig):
    s1, s2 = rig.recipe_servers(recipe_commands(LOCAL_RECIPE.read_text()))
    proxy = rig.haproxy([s1, s2], local=True)
    results = ask_concurrently(proxy.port, 16)
    assert len(results) == 16 and all(r.ok for r in results), describe(results)  # the exact answers
    clients = {r.local_port for r in results}
    deadline = time.monotonic() + 10
    while len(s1.client_ports()) + len(s2.client_ports()) < len(clients) and time.monotonic() < deadline:
        time.sleep(0.05)
    on_s1, on_s2 = set(s1.client_ports()), set(s2.client_ports())
    # Each server logged the client's own port as the PROXY header claimed it,
    # "via 127.0.0.1": the trusted proxy it came through (client_ports' pattern).
    assert on_s1 | on_s2 == clients and not on_s1 & on_s2, (sorted(clients), s1.log, s2.log)
    assert "refused" not in s1.log + s2.log
