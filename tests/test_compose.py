"""docker-compose.yml: every long-running service comes back by itself (restart policy) and
the worker has a healthcheck of its own (it answers a ping), not only the web's /healthz."""

import re
from pathlib import Path

import pytest
import yaml
from django.conf import settings

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


# --- the proxies' micro-cache of the public results (issue 36) -----------------------------

LOCATION = re.compile(r'\n    location\s+(?:~\s+"([^"]+)"|(\S+))\s*\{(.*?)\n    \}', re.S)
MAP = re.compile(r'\nmap\s+("[^"]+"|\S+)\s+\$(\w+)\s*\{(.*?)\n\}', re.S)


def _maps(conf: str) -> dict[str, list[tuple[str, str]]]:
    """Each map's entries in order, as (pattern, value)."""
    found = {}
    for _source, name, body in MAP.findall(conf):
        entries = []
        for line in body.strip().splitlines():
            key, value = line.strip().rstrip(";").rsplit(None, 1)
            entries.append((key.strip('"'), value))
        found[name] = entries
    return found


def _map(entries, value: str) -> str:
    """What nginx's map gives for ``value``: an exact key, else the first regex that
    matches (``~*`` without case), else the default."""
    exact = {k: v for k, v in entries if not k.startswith("~")}
    if value in exact and value != "default":
        return exact[value]
    for key, result in entries:
        if key.startswith("~*") and re.search(key[2:], value, re.I):
            return result
        if key.startswith("~") and not key.startswith("~*") and re.search(key[1:], value):
            return result
    return exact["default"]


@pytest.mark.parametrize("name", ["nginx.conf", "nginx-tls.conf"])
def test_the_proxy_micro_caches_the_public_results_only_for_anonymous_readers(name):
    """deploy/nginx.conf (and its TLS twin) keep an anonymous reader's public results for a
    few seconds in front of the replicas, one request per page at a time; never a request
    with a session cookie, credentials or a view of one's own, never another address."""
    conf = (COMPOSE.parent / "deploy" / name).read_text()
    locations = {regex or prefix: body for regex, prefix, body in LOCATION.findall(conf)}
    cached = [(k, body) for k, body in locations.items() if "proxy_cache " in body]
    assert len(cached) == 1 and "proxy_cache " not in locations["/"]
    pattern, body = cached[0]
    for path in (
        "/e/club-cup/results/",
        "/e/club-cup/results/sessions/2/",
        "/e/club-cup/results/standings.csv",
        "/e/club-cup/results/version.json",
        "/en/e/club-cup/results/cards/7/",
    ):
        assert re.match(pattern, path), path
    for path in (
        "/t/k3y/",
        "/p/k3y/clock.json",
        "/director/events/1/",
        "/api/events/",
        "/e/club-cup/clock.json",
        "/ladder/club/",
        "/static/css/app.css",
    ):
        assert not re.match(pattern, path), path

    zone = re.search(r"proxy_cache (\w+);", body).group(1)
    assert re.search(rf"proxy_cache_path \S+ .*keys_zone={zone}:", conf, re.S)
    for rule in (
        "proxy_cache_valid 200 403 5s;",
        "proxy_cache_lock on;",
        "proxy_cache_use_stale updating;",
        "proxy_cache_revalidate on;",
    ):
        assert rule in body, rule
    # A browser's If-None-Match is answered from the kept copy, never passed on (the app's
    # 304 to one tab would be kept for everyone); nothing makes nginx ignore the app's
    # Cache-Control, Set-Cookie or Vary.
    assert "If-None-Match" not in re.sub(r"#.*", "", body)
    assert "proxy_ignore_headers" not in conf

    maps = _maps(conf)
    key = re.search(r'proxy_cache_key "([^"]+)";', body).group(1)
    assert key.startswith("$scheme://$host$request_uri") and "$http_accept_language" not in key
    language = re.search(r"\|\$(\w+)$", key).group(1)
    assert _map(maps[language], ":") == "ru"
    assert _map(maps[language], ":ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7") == "ru"
    assert _map(maps[language], ":en-GB,en;q=0.9,ru;q=0.8") == "en"
    assert _map(maps[language], ":de-DE,de;q=0.9,en;q=0.8") == "en"
    assert _map(maps[language], ":fr-FR,fr;q=0.9") == "ru"
    # Never the language cookie: the app's public pages do not read it (config/locale.py).
    source = next(src for src, name, _body in MAP.findall(conf) if name == language)
    assert "cookie" not in source and "$http_accept_language" in source

    bypass = re.search(r"proxy_cache_bypass \$(\w+);", body).group(1)
    assert f"proxy_no_cache ${bypass};" in body
    session_map, view_map = (
        next(n for n in maps if n.startswith(prefix))
        for prefix in ("public_session", "public_own_view")
    )
    cookie = settings.SESSION_COOKIE_NAME
    assert _map(maps[session_map], f"csrftoken=abc; {cookie}=xyz") == "1"
    assert _map(maps[session_map], f"{cookie}=xyz") == "1"
    assert _map(maps[session_map], "csrftoken=abc; django_language=en") == "0"
    assert _map(maps[view_map], "view=director") == "1"
    assert _map(maps[view_map], "sort=name&view=director") == "1"
    assert _map(maps[view_map], "preview=1&overview=2") == "0"
    combined = maps[bypass]
    assert _map(combined, "00") == "0"  # no session, no own view, no credentials: shared
    for value in ("10", "01", "00Token abc"):
        assert _map(combined, value) == "1", value
