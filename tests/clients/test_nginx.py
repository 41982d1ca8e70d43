"""nginx's stream module, for real, on loopback, in front of two servers (deploy/nginx-stream.conf).

The snippet is rendered with free loopback ports (every other setting kept)
and included from a minimal main configuration; ``nginx -t`` checks it, and
one nginx process (``daemon off; master_process off``) serves real traffic.
Skipped when nginx or its stream module is missing (Debian packages
``nginx`` and ``libnginx-mod-stream``; ``.ci/run`` installs them).
"""

from __future__ import annotations

import collections
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.support.balancers import CLIENTS, Load, Logged, Request, ask, describe, free_port
from tests.support.paths import REPO

NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
STREAM_MODULE = next(
    (
        p
        for p in (
            Path("/usr/lib/nginx/modules/ngx_stream_module.so"),
            Path("/usr/lib64/nginx/modules/ngx_stream_module.so"),
        )
        if p.exists()
    ),
    None,
)
SNIPPET = REPO / "deploy" / "nginx-stream.conf"


def _stream_built_in() -> bool:
    """nginx built with the stream module linked in (not as a dynamic module)."""
    built = subprocess.run([NGINX, "-V"], capture_output=True, text=True, timeout=30).stderr
    return re.search(r"--with-stream(\s|$)", built) is not None


pytestmark = pytest.mark.skipif(
    NGINX is None or (STREAM_MODULE is None and not _stream_built_in()),
    reason="nginx or its stream module is not installed (Debian packages nginx, libnginx-mod-stream;"
    " .ci/run installs them)",
)


def render_snippet(snippet: str, listen_port: int, servers: list[int]) -> str:
    """``snippet`` listening on 127.0.0.1:``listen_port``, its upstream servers on 127.0.0.1:``servers``.

    Each upstream ``server ADDRESS options;`` line keeps its options.

    Raises:
      ValueError: the snippet has not exactly len(servers) upstream servers.
    """
    ports = iter(servers)
    count = 0

    def upstream(match: re.Match) -> str:
        nonlocal count
        count += 1
        return f"{match.group(1)}127.0.0.1:{next(ports)}{match.group(2)}"

    text = re.sub(r"(?m)^(\s*listen\s+)\S+;", rf"\g<1>127.0.0.1:{listen_port};", snippet)
    text = re.sub(r"(?m)^(\s*server\s+)\d+\.\d+\.\d+\.\d+:\d+(\s[^;{]*;|;)", upstream, text)
    if count != len(servers):
        raise ValueError(f"the snippet has {count} upstream servers, not {len(servers)}")
    return text


def main_config(workdir: Path, snippet: Path) -> Path:
    module = f"load_module {STREAM_MODULE};\n" if STREAM_MODULE else ""
    path = workdir / "nginx.conf"
    path.write_text(
        f"{module}daemon off;\nmaster_process off;\nerror_log stderr notice;\n"
        f"pid {workdir / 'nginx.pid'};\nevents {{}}\ninclude {snippet};\n"
    )
    return path


def test_nginx_accepts_the_snippet_as_shipped(tmp_path):
    result = subprocess.run(
        [str(NGINX), "-t", "-p", str(tmp_path), "-c", str(main_config(tmp_path, SNIPPET))],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    assert "syntax is ok" in result.stderr


def test_render_keeps_the_upstream_options():
    text = render_snippet(SNIPPET.read_text(), 1234, [1, 2])
    assert "server 127.0.0.1:1 max_fails=1 fail_timeout=5s;" in text
    assert "server 127.0.0.1:2 max_fails=1 fail_timeout=5s;" in text
    assert "listen 127.0.0.1:1234;" in text and "10.0.0." not in text.split("stream {", 1)[1]


def test_nginx_splits_sends_proxy_headers_and_retries_a_killed_server(rig, tmp_path):
    s1, s2 = rig.servers("s1", "s2")
    port = free_port()
    snippet = tmp_path / "sudoku-stream.conf"
    snippet.write_text(render_snippet(SNIPPET.read_text(), port, [s1.port, s2.port]))
    nginx = Logged([str(NGINX), "-p", str(tmp_path), "-c", str(main_config(tmp_path, snippet))])
    try:
        deadline = time.monotonic() + 10
        while True:  # nginx is up once its port accepts (a probe would reach a server: use the log)
            try:
                with open(tmp_path / "nginx.pid"):
                    break
            except FileNotFoundError:
                assert time.monotonic() < deadline and nginx.proc.poll() is None, nginx.log
                time.sleep(0.05)
        time.sleep(0.2)

        results: list[Request] = []
        lock = threading.Lock()

        def client(first: int) -> None:
            for index in range(first, 24, 4):
                request = ask(port, index)
                with lock:
                    results.append(request)

        threads = [threading.Thread(target=client, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert len(results) == 24 and all(r.ok for r in results), (
            describe(results) + f"\nnginx:\n{nginx.log}\ns1:\n{s1.log}"
        )
        deadline = time.monotonic() + 10
        while len(s1.client_ports()) + len(s2.client_ports()) < 24 and time.monotonic() < deadline:
            time.sleep(0.05)
        on_s1, on_s2 = set(s1.client_ports()), set(s2.client_ports())
        assert on_s1 | on_s2 == {r.local_port for r in results} and not on_s1 & on_s2, (s1.log, s2.log)
        assert len(on_s1) >= 2 and len(on_s2) >= 2, (len(on_s1), len(on_s2))  # leastconn: by load, not turns

        load = Load(port)
        time.sleep(1.0)
        s2.proc.send_signal(signal.SIGKILL)
        s2.proc.wait(5)
        killed = time.monotonic()
        time.sleep(1.5)
        requests = load.stop()
        after = [r for r in requests if r.started >= killed]
        before = [r for r in requests if r.started < killed]
        lost = [r for r in before if not r.ok]
        print(
            f"nginx: {len(requests)} requests, {len(before)} before SIGKILL ({len(lost)} lost), {len(after)} after it"
        )
        assert all(r.ok for r in after), describe(after)
        assert len(after) >= CLIENTS
        on_s1 = s1.served(after)
        assert all(r.local_port in on_s1 for r in after)
        # Only connections that were open on the killed server may fail. The
        # client ports wrap around in a run this long (6,000 connections): a
        # lost request's port may come back for a later request that s1
        # served, so s1 may log a port no more often than answered requests had it.
        logged = collections.Counter(s1.client_ports())
        answered = collections.Counter(r.local_port for r in requests if r.ok)
        assert not any(logged[r.local_port] > answered[r.local_port] for r in lost), describe(before)
    finally:
        nginx.stop()
