"""The clients tier's fixtures: ``rig`` starts servers and HAProxy (tests/support/balancers.py)."""

from __future__ import annotations

import sys

import pytest

from tests.support.balancers import HAProxy, Logged
from tests.support.balancers import Server as Backend


@pytest.fixture
def rig(tmp_path):
    """Starts servers and HAProxy, stops whatever is left at the end."""
    started: list[Logged] = []

    class Rig:
        def servers(self, *names: str, extra=()) -> list[Backend]:
            """One server per name; ``extra``: more arguments for the first one."""
            made = [Backend(name, *(extra if i == 0 else ())) for i, name in enumerate(names)]
            started.extend(made)
            return [server.started() for server in made]

        def recipe_servers(self, commands: list[list[str]]) -> list[Backend]:
            """One server per recipe command line (``python3 -m sudoku_server ...``), on a free port each."""
            made = []
            for number, command in enumerate(commands, start=1):
                argv = [sys.executable, "-W", "error", *command[1:]]
                argv[argv.index("--port") + 1] = "0"
                made.append(Backend(f"s{number}", argv=argv))
            started.extend(made)
            return [server.started() for server in made]

        def haproxy(self, servers: list[Backend], proxy_option: str = "send-proxy", local: bool = False) -> HAProxy:
            proxy = HAProxy(tmp_path, servers, proxy_option, local)
            started.append(proxy)
            proxy.ready([s.name for s in servers])
            proxy.watch()
            return proxy

    try:
        yield Rig()
    finally:
        for process in started:
            process.stop()
