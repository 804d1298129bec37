"""The deployment examples of docs/server.md: ``deploy/compose.yaml`` parses and its
pieces fit together (there is no Docker here to start it): the euchre servers believe the
forwarded address from nginx alone, answer the site's name, and nginx forwards what they
need and bounds slow clients."""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import typer
from serverkit import free_port, server_process
from websockets.sync.client import connect
from websockets.typing import Origin

from euchre.cli import app as cli_app
from euchre.server.security import check_host_name
from euchre.server.storage import is_postgres_url
from euchre.server.transport import DEFAULT_HEADER_TIMEOUT, check_proxy

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

yaml = pytest.importorskip("yaml", reason="PyYAML (with uvicorn[standard]) reads compose.yaml")


def _compose() -> dict[str, Any]:
    compose: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return compose


def test_the_compose_file_runs_postgresql_several_servers_and_nginx() -> None:
    services = _compose()["services"]
    assert set(services) == {"db", "euchre", "proxy"}
    db = services["db"]["environment"]
    command = services["euchre"]["command"]
    url = command[command.index("--db") + 1]
    assert is_postgres_url(url)
    # the URL names the database service, its user, password and database
    assert url == (f"postgresql://{db['POSTGRES_USER']}:{db['POSTGRES_PASSWORD']}"
                   f"@db/{db['POSTGRES_DB']}")
    assert command[command.index("--host") + 1] == "0.0.0.0"
    assert services["euchre"]["deploy"]["replicas"] >= 2
    assert services["euchre"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert (DEPLOY / services["euchre"]["build"]["dockerfile"].removeprefix("deploy/")).exists()
    mount = services["proxy"]["volumes"][0].split(":")
    assert (DEPLOY / mount[0]).resolve() == DEPLOY / "nginx.conf"


def _nginx() -> str:
    """deploy/nginx.conf without its comments."""
    conf = (DEPLOY / "nginx.conf").read_text()
    return "\n".join(line.split("#")[0] for line in conf.splitlines())


def _options(command: list[str]) -> dict[str, list[str]]:
    """``--option value`` pairs of a command line (every option of ``euchre serve`` here
    takes a value), with compose's ``${NAME:-default}`` read as its default."""
    assert command[:2] == ["euchre", "serve"]
    pairs = command[2:]
    options: dict[str, list[str]] = {}
    for name, value in zip(pairs[::2], pairs[1::2], strict=True):
        options.setdefault(name, []).append(re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", value))
    return options


def test_the_servers_believe_the_forwarded_address_from_nginx_alone() -> None:
    services = _compose()
    euchre = services["services"]["euchre"]
    options = _options(euchre["command"])
    serve = typer.main.get_command(cli_app).commands["serve"]  # type: ignore[attr-defined]
    accepted = {opt for p in serve.params for opt in p.opts}
    assert set(options) <= accepted
    proxy = services["services"]["proxy"]["networks"]["default"]["ipv4_address"]
    assert options["--trusted-proxy"] == [check_proxy(proxy)]  # nginx's own address only
    # nginx's address is in the network, and out of the range others are given
    (subnet,) = services["networks"]["default"]["ipam"]["config"]
    assert ipaddress.ip_address(proxy) in ipaddress.ip_network(subnet["subnet"])
    assert ipaddress.ip_address(proxy) not in ipaddress.ip_network(subnet["ip_range"])
    # the site's name is answered, and uvicorn's own setting is not used to trust anyone
    assert [check_host_name(h) for h in options["--allow-host"]] == ["localhost"]
    assert "FORWARDED_ALLOW_IPS" not in str(euchre.get("environment", ""))


def test_nginx_forwards_the_host_the_clients_address_and_bounds_slow_clients() -> None:
    code = _nginx()
    assert re.search(r"proxy_set_header\s+Host\s+\$http_host;", code)
    # the address nginx saw, replacing what a client wrote: not $proxy_add_x_forwarded_for
    assert re.search(r"proxy_set_header\s+X-Forwarded-For\s+\$remote_addr;", code)
    assert "proxy_add_x_forwarded_for" not in code
    assert re.search(r"proxy_set_header\s+X-Forwarded-Proto\s+\$scheme;", code)
    timeout = re.search(r"client_header_timeout\s+(\d+)s;", code)
    assert timeout is not None and int(timeout[1]) <= DEFAULT_HEADER_TIMEOUT
    assert re.search(r"client_body_timeout\s+\d+s;", code)
    assert re.search(r"server_tokens\s+off;", code)


def test_nginx_upgrades_websockets_to_every_server_without_sticky_sessions() -> None:
    code = _nginx()
    port = _compose()["services"]["euchre"]["command"]
    assert re.search(rf"server\s+euchre:{port[port.index('--port') + 1]};", code)
    assert re.search(r"proxy_set_header\s+Upgrade\s+\$http_upgrade;", code)
    assert re.search(r"proxy_set_header\s+Connection\s+\$connection_upgrade;", code)
    assert re.search(r"proxy_set_header\s+Host\s+\$http_host;", code)
    assert "proxy_http_version 1.1;" in code
    assert not re.search(r"\b(ip_hash|sticky|hash)\b", code)
    assert code.count("{") == code.count("}")


# -- nginx.conf in a real nginx, in front of a real server ----------------------------------
@contextlib.contextmanager
def _nginx_in_front(tmp_path: Path, port: int) -> Iterator[int]:
    """deploy/nginx.conf's site in Debian's nginx on a loopback port (returned), passing
    to the euchre server on ``port``; stopped on exit."""
    front = free_port()
    site = (DEPLOY / "nginx.conf").read_text()
    site = site.replace("server euchre:8000;", f"server 127.0.0.1:{port};")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{front};")
    temp = " ".join(f"{kind}_temp_path {tmp_path / kind};"
                    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    conf = tmp_path / "nginx.conf"
    conf.write_text(f"{'user root;' if os.geteuid() == 0 else ''}\n"
                    f"pid {tmp_path / 'nginx.pid'};\ndaemon off;\nevents {{}}\n"
                    f"http {{\naccess_log off;\n{temp}\n{site}\n}}\n")
    log = tmp_path / "nginx-error.log"
    proc = subprocess.Popen([NGINX, "-p", str(tmp_path), "-e", str(log), "-c", str(conf)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", front)):
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise RuntimeError(f"nginx did not start: {err}")
            time.sleep(0.05)
        yield front
    finally:
        proc.terminate()
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()


@pytest.mark.skipif(not Path(NGINX).exists(), reason="Debian's nginx is not installed "
                    "(apt-get install nginx-light): deploy/nginx.conf is not run")
def test_behind_nginx_each_client_counts_apart_and_cannot_claim_another_address(
        tmp_path: Path) -> None:
    port = free_port()
    with server_process(tmp_path / "d.sqlite3", port, 0.0, "--trusted-proxy", "127.0.0.1",
                        "--allow-host", "cards.example", "--rate-tables", "1/3600"), \
            _nginx_in_front(tmp_path, port) as front:
        new = {"rules": {"players": 2}, "seats": [{"kind": "you"},
                                                   {"kind": "bot", "bot": "random"}]}

        def client(address: str) -> httpx2.Client:
            return httpx2.Client(base_url=f"http://127.0.0.1:{front}", timeout=10,
                                 headers={"host": f"cards.example:{front}"},
                                 transport=httpx2.HTTPTransport(local_address=address))

        with client("127.0.0.1") as one, client("127.0.0.2") as two:
            first = one.post("/api/tables", json=new)
            assert first.status_code == 201
            # the same client, whatever it writes in X-Forwarded-For: nginx replaces it
            assert one.post("/api/tables", json=new,
                            headers={"x-forwarded-for": "10.9.9.9"}).status_code == 429
            # another client: its own address counts, not nginx's
            assert two.post("/api/tables", json=new).status_code == 201
            # the site's name passes through nginx; another name is refused
            assert one.get("/api/options").headers["content-security-policy"]
            refused = one.get("/api/options", headers={"host": "evil.example"})
            assert refused.status_code == 400 and refused.json()["code"] == "bad_host"
        # a page of the site opens its table's WebSocket through nginx
        answer = first.json()
        sock = socket.create_connection(("127.0.0.1", front), timeout=10)
        with connect(f"ws://cards.example:{front}/ws/{answer['id']}?token={answer['token']}",
                     sock=sock, origin=Origin(f"http://cards.example:{front}"),
                     open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "hello"
