"""docker-compose.yml: every long-running service comes back by itself (restart policy) and
the worker has a healthcheck of its own (it answers a ping), not only the web's /healthz."""

from pathlib import Path

import yaml

COMPOSE = Path(__file__).resolve().parent.parent / "docker-compose.yml"


def test_every_long_running_service_restarts_and_the_worker_is_checked():
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    for name in ("db", "redis", "web", "proxy", "worker"):
        assert services[name].get("restart") == "unless-stopped", name
    assert services["migrate"].get("restart") == "no"  # a one-off: it must not loop
    check = " ".join(services["worker"]["healthcheck"]["test"])
    assert "inspect ping" in check and "$$HOSTNAME" in check


def test_the_tls_proxy_is_an_option_that_serves_https_to_the_same_web():
    """`docker compose --profile tls`: the proxy on HTTPS (docs/offline.md: the phones' pages
    open offline only on a secure origin), off unless asked, back by itself, and telling the
    app the scheme it ended."""
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    tls = services["proxy-tls"]
    assert tls["profiles"] == ["tls"] and tls.get("restart") == "unless-stopped"
    assert any(v.startswith("./deploy/nginx-tls.conf:") for v in tls["volumes"])
    assert tls["depends_on"]["web"]["condition"] == "service_healthy"
    conf = (COMPOSE.parent / "deploy" / "nginx-tls.conf").read_text()
    assert "listen 443 ssl;" in conf and "proxy_set_header X-Forwarded-Proto https;" in conf
    assert "server web:8000;" in conf
