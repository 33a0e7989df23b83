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
