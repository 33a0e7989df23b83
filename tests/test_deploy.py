"""A deployment that passes its own checks and installs what was tested (issue 35).

`manage.py check --deploy` is clean under the production settings (a strong key, DEBUG off,
HTTPS=1 behind the proxy); HTTPS=1 redirects plain HTTP and sends HSTS; a short or
published SECRET_KEY stops the start, and compose has no default for it; the image runs as
an unprivileged user and its build context (.dockerignore) holds no key, no var/, no tests;
the environment the suite runs in is exactly the lock file's."""

import json
import os
import re
import secrets
import subprocess
import sys
import urllib.error
import urllib.request
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.serving import gunicorn

ROOT = Path(__file__).resolve().parent.parent


def _production(**env) -> dict:
    clean = {
        k: v
        for k, v in os.environ.items()
        # DJANGO_ALLOW_ASYNC_UNSAFE: set by the suite for Playwright, never in a deployment
        # (check --deploy rightly names it, async.E001).
        if k
        not in (
            "HTTPS",
            "PROXY_COUNT",
            "DEBUG",
            "SECRET_KEY",
            "SITE_URL",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        )
        and not k.startswith("HSTS_")
    }
    return clean | {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEBUG": "0",
        "HTTPS": "1",
        "PROXY_COUNT": "1",
        "ALLOWED_HOSTS": "club.example.org",
        **env,
    }


def _manage(*args: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=_production(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )


# --- check --deploy and what HTTPS=1 turns on -----------------------------------------------


def test_check_deploy_is_clean_under_the_production_settings():
    done = _manage("check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues (0 silenced)." in done.stdout
    assert "WARNINGS" not in done.stdout + done.stderr


def test_without_https_check_deploy_names_what_is_missing():
    """The check is not blind: the same settings over plain HTTP warn of HSTS, the redirect
    and the cookies."""
    done = _manage("check", "--deploy", HTTPS="0")
    for code in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert code in done.stderr, done.stderr


DUMP = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({name: getattr(s, name, None) for name in (
    "SECURE_SSL_REDIRECT", "SECURE_SSL_HOST", "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SECURE_PROXY_SSL_HEADER",
    "SECURE_REDIRECT_EXEMPT")}))
"""


def _settings(**env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", DUMP],
        cwd=ROOT,
        env=_production(**env),
        capture_output=True,
        text=True,
    )


def test_https_turns_on_the_redirect_and_hsts_and_plain_http_neither():
    on = json.loads(_settings().stdout)
    assert on["SECURE_SSL_REDIRECT"] is True and on["SECURE_HSTS_SECONDS"] == 365 * 24 * 3600
    assert on["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True and on["SECURE_HSTS_PRELOAD"] is True
    assert on["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert on["SECURE_REDIRECT_EXEMPT"] == ["^healthz$"]
    off = json.loads(_settings(HTTPS="0").stdout)
    assert not off["SECURE_SSL_REDIRECT"] and not off["SECURE_HSTS_SECONDS"]
    shorter = json.loads(_settings(HSTS_SECONDS="3600", HSTS_INCLUDE_SUBDOMAINS="0").stdout)
    assert shorter["SECURE_HSTS_SECONDS"] == 3600
    assert shorter["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is False


@pytest.mark.parametrize("value", ["-1", "a year"])
def test_a_bad_hsts_value_stops_the_start_naming_it(value):
    done = _settings(HSTS_SECONDS=value)
    assert done.returncode != 0 and "HSTS_SECONDS" in done.stderr


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _get(url: str, **headers):
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        return opener.open(urllib.request.Request(url, headers=headers), timeout=20)
    except urllib.error.HTTPError as error:
        return error


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_behind_the_proxy_plain_http_goes_to_https_and_https_answers_carry_hsts(tmp_path):
    """gunicorn as compose runs it with HTTPS=1: a request the proxy got over plain HTTP is
    sent to SITE_URL's https address, one it got over HTTPS is served with HSTS, and the
    healthcheck, asked over plain HTTP from inside the container, is answered, not sent away."""
    settings = {"HTTPS": "1", "PROXY_COUNT": "1", "SITE_URL": "https://hall.example:8443"}
    settings["ALLOWED_HOSTS"] = "127.0.0.1,hall.example"
    with gunicorn(tmp_path, ready="/healthz", timeout=30, **settings) as server:
        plain = _get(
            f"{server.base}/director/login/?next=/director/", **{"X-Forwarded-Proto": "http"}
        )
        assert plain.status == 301
        assert (
            plain.headers["Location"] == "https://hall.example:8443/director/login/?next=/director/"
        )
        secure = _get(f"{server.base}/director/login/", **{"X-Forwarded-Proto": "https"})
        assert secure.status == 200
        assert secure.headers["Strict-Transport-Security"] == (
            "max-age=31536000; includeSubDomains; preload"
        )
        health = _get(f"{server.base}/healthz")
        assert health.status in (200, 503) and "Location" not in health.headers
    assert "Traceback" not in server.output, server.output


# --- SECRET_KEY: no default, nothing short or published ---------------------------------------

COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())


@pytest.mark.parametrize(
    "key",
    [
        "change-me-change-me-change-me-change-me",  # compose's former default
        "change-me-change-me-change-me-change-me-change-me-change-me",  # long, still published
        "django-insecure-" + secrets.token_urlsafe(40),  # startproject's kind
        secrets.token_urlsafe(36),  # 48 characters: random but short
        "ab" * 40,  # long, but two characters
    ],
    # Named, not by their value: each parallel worker collects the list anew, and the two
    # random keys would differ between them (xdist refuses such a run).
    ids=["compose-default", "published-long", "django-insecure", "random-48", "two-characters"],
)
def test_a_short_or_published_secret_key_stops_the_start(key):
    done = _manage("check", SECRET_KEY=key)
    assert done.returncode != 0
    assert "SECRET_KEY must be a random string of at least 50 characters" in done.stderr


def test_a_strong_secret_key_starts():
    done = _manage("check", SECRET_KEY=secrets.token_urlsafe(50))
    assert done.returncode == 0, done.stderr


def _interpolate(value: str, env: dict) -> str:
    """Compose's interpolation of ``${VAR:?message}`` and ``${VAR:-default}``: an unset or
    empty VAR with ``:?`` stops compose with the message."""

    def one(match: re.Match) -> str:
        name, op, rest = match.group(1), match.group(2), match.group(3)
        if env.get(name):
            return env[name]
        if op == ":?":
            raise ValueError(f"required variable {name} is missing a value: {rest}")
        return rest or ""

    return re.sub(r"\$\{(\w+)(?:(:\?|:-)([^}]*))?\}", one, value)


def test_compose_refuses_to_start_without_a_secret_key():
    app_services = [
        name for name, s in COMPOSE["services"].items() if "SECRET_KEY" in s.get("environment", {})
    ]
    assert set(app_services) == {"migrate", "web", "worker"}
    for name in app_services:
        raw = COMPOSE["services"][name]["environment"]["SECRET_KEY"]
        assert raw.startswith("${SECRET_KEY:?"), (name, raw)  # no default to fall back on
        with pytest.raises(ValueError, match="SECRET_KEY"):
            _interpolate(raw, {})
        with pytest.raises(ValueError, match="50 or more characters"):
            _interpolate(raw, {"SECRET_KEY": ""})
        key = secrets.token_urlsafe(50)
        assert _interpolate(raw, {"SECRET_KEY": key}) == key


# --- the image: an unprivileged user, the locked versions, a clean build context -------------

DOCKERFILE = (ROOT / "Dockerfile").read_text()


def test_the_image_runs_as_an_unprivileged_user_on_the_locked_versions():
    users = re.findall(r"^USER\s+(\S+)", DOCKERFILE, re.M)
    assert users and users[-1] not in ("root", "0", "0:0")
    assert re.search(rf"useradd .*--uid \d+ .*{users[-1]}$", DOCKERFILE, re.M)
    installs = re.findall(r"pip install[^\n]*", DOCKERFILE)
    assert installs == ["pip install --no-cache-dir --require-hashes -r requirements.txt"]
    assert DOCKERFILE.index("USER ") > DOCKERFILE.index("chown -R app:app /app/var")
    assert "FROM python:3.11-" in DOCKERFILE


def _dockerignore() -> list[tuple[bool, re.Pattern]]:
    """The patterns of .dockerignore as Docker reads them: one per line, ``#`` comments,
    leading ``/`` and ``./`` dropped, ``!`` an exception, Go's filepath.Match with ``**``
    for any number of folders; the last pattern that matches a path decides."""
    rules = []
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keep = line.startswith("!")
        pattern = os.path.normpath(line.lstrip("!").strip()).lstrip("/")
        regex = ""
        i = 0
        while i < len(pattern):
            if pattern.startswith("**/", i):
                regex, i = regex + "(?:.*/)?", i + 3
            elif pattern.startswith("**", i):
                regex, i = regex + ".*", i + 2
            elif pattern[i] == "*":
                regex, i = regex + "[^/]*", i + 1
            elif pattern[i] == "?":
                regex, i = regex + "[^/]", i + 1
            else:
                regex, i = regex + re.escape(pattern[i]), i + 1
        rules.append((keep, re.compile(regex + r"\Z")))
    return rules


def _excluded(path: str, rules) -> bool:
    """Whether Docker leaves ``path`` (relative, with /) out: a path is out when the last
    rule matching it or one of its parent folders excludes it."""
    parts = path.split("/")
    out = False
    for keep, regex in rules:
        if any(regex.match("/".join(parts[:n])) for n in range(1, len(parts) + 1)):
            out = not keep
    return out


def _build_context() -> list[str]:
    """Every file `docker build .` would send, walking this tree with .dockerignore."""
    rules = _dockerignore()
    exceptions = any(keep for keep, _ in rules)
    sent = []
    for folder, dirs, files in os.walk(ROOT):
        rel = Path(folder).relative_to(ROOT).as_posix()
        prefix = "" if rel == "." else rel + "/"
        if not exceptions:  # no «!» pattern can bring back a file below an excluded folder
            dirs[:] = [d for d in dirs if not _excluded(prefix + d, rules)]
        sent += [prefix + f for f in files if not _excluded(prefix + f, rules)]
    return sent


def test_dockerignore_follows_dockers_matching():
    rules = [(False, regex) for _keep, regex in _dockerignore()]
    assert _excluded("var/db.sqlite3", rules) and _excluded("deploy/certs/privkey.pem", rules)
    assert _excluded("scoring/__pycache__/x.pyc", rules) and _excluded("a/b/c.pem", rules)
    assert _excluded(".env", rules) and _excluded(".env.production", rules)
    assert not _excluded("deploy/nginx.conf", rules) and not _excluded("scoring/tests.py", rules)


def test_the_build_context_holds_no_key_no_var_and_no_tests():
    # What a director's clone holds besides the code: a certificate's key, a database, .env.
    for path in (
        "deploy/certs/privkey.pem",
        "deploy/certs/fullchain.pem",
        "var/db.sqlite3",
        "var/secret_key",
        "var/backups/db-1.sqlite3",
        ".env",
        ".venv/bin/python",
        ".git/config",
        "tests/conftest.py",
        "club.key",
    ):
        assert _excluded(path, _dockerignore()), path
    sent = _build_context()
    assert not [p for p in sent if p.split("/")[0] in ("var", "tests", ".git", ".venv")]
    assert not [p for p in sent if p.startswith("deploy/certs/")]
    assert not [p for p in sent if p.endswith((".pem", ".key")) or "secret_key" in p]
    assert not [p for p in sent if p == ".env" or p.startswith(".env.")]
    # …and everything the image runs on.
    for needed in (
        "manage.py",
        "requirements.txt",
        "config/settings.py",
        "config/gunicorn.py",
        "locale/ru/LC_MESSAGES/django.po",
        "templates/base.html",
    ):
        assert needed in sent, needed
    assert any(p.startswith("static/") for p in sent)


# --- the lock files -----------------------------------------------------------------------------

PIN = re.compile(r"^([A-Za-z0-9_.-]+)==(\S+)", re.M)


def _locked(name: str) -> dict[str, str]:
    text = (ROOT / name).read_text()
    blocks = re.split(r"\n(?=[A-Za-z0-9])", text)
    pins = {}
    for block in blocks:
        found = PIN.match(block)
        if found:
            assert "--hash=sha256:" in block, f"{found.group(1)} has no hash in {name}"
            pins[canonicalize_name(found.group(1))] = found.group(2)
    return pins


def _declared() -> tuple[list[Requirement], list[Requirement]]:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    main = [Requirement(r) for r in project["dependencies"]]
    dev = [Requirement(r) for r in project["optional-dependencies"]["dev"]]
    return main, dev


def test_the_lock_files_pin_every_declared_dependency_with_hashes_at_one_version():
    runtime, dev = _locked("requirements.txt"), _locked("requirements-dev.txt")
    main, tools = _declared()
    assert "numpy" in {canonicalize_name(r.name) for r in main}  # the solver imports it
    for requirement, locked in [(r, runtime) for r in main] + [(r, dev) for r in main + tools]:
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{name} is declared but not locked: run make lock"
        assert requirement.specifier.contains(locked[name], prereleases=True), (
            f"{name}=={locked[name]} does not satisfy {requirement}: run make lock"
        )
    for name, version in runtime.items():  # the image runs what the suite tested
        assert dev.get(name) == version, name


def test_the_suite_runs_on_exactly_the_locked_versions():
    """What `pip freeze` lists is the lock, no more, no other version (pip and the build
    tools of a bare venv aside)."""
    installed = {}
    for dist in metadata.distributions():
        name = canonicalize_name(dist.metadata["Name"])
        installed[name] = dist.version
    for name in ("pip", "setuptools", "wheel", "duplicate-preference"):
        installed.pop(name, None)
    locked = _locked("requirements-dev.txt")
    differ = {
        name: (locked.get(name), installed.get(name))
        for name in locked.keys() | installed.keys()
        if locked.get(name) != installed.get(name)
    }
    assert not differ, f"(locked, installed): {differ} — make install-dev, or add it and make lock"
