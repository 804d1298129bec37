"""The deployment examples of docs/server.md: ``deploy/compose.yaml`` parses and its
pieces fit together (there is no Docker here to start it)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from euchre.server.storage import is_postgres_url

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"

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


def test_nginx_upgrades_websockets_to_every_server_without_sticky_sessions() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    code = "\n".join(line.split("#")[0] for line in conf.splitlines())
    port = _compose()["services"]["euchre"]["command"]
    assert re.search(rf"server\s+euchre:{port[port.index('--port') + 1]};", code)
    assert re.search(r"proxy_set_header\s+Upgrade\s+\$http_upgrade;", code)
    assert re.search(r"proxy_set_header\s+Connection\s+\$connection_upgrade;", code)
    assert re.search(r"proxy_set_header\s+Host\s+\$http_host;", code)
    assert "proxy_http_version 1.1;" in code
    assert not re.search(r"\b(ip_hash|sticky|hash)\b", code)
    assert code.count("{") == code.count("}")
