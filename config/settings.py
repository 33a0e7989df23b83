"""Settings for the duplicate Preference tournament app, read from the environment.

With no ``DATABASE_URL`` / ``REDIS_URL`` the app runs on its embedded default: SQLite and a
filesystem Celery broker under ``var/``, so ``make run`` works on a bare clone. Tests and
production set both and run on PostgreSQL and Redis.
"""

import re
import secrets
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.utils.translation import gettext_lazy as _

from config.env import (
    ImproperlyConfiguredEnv,
    env_bool,
    env_int,
    env_list,
    env_str,
    env_timezone,
    env_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("VAR_DIR") or BASE_DIR / "var")
VAR_DIR.mkdir(parents=True, exist_ok=True)


#: Keys published with this code (the compose file's and the image build's former defaults):
#: anyone could sign a session or a CSRF token with them.
_PUBLISHED_KEY_PREFIXES = ("change-me", "build-only", "django-insecure")


def _secret_key() -> str:
    key = env_str("SECRET_KEY")
    if key is not None:
        # Django's own rule for a strong key (check --deploy, security.W009), so that a key
        # this start accepts is one that check accepts too.
        if len(key) < 50 or len(set(key)) < 5 or key.startswith(_PUBLISHED_KEY_PREFIXES):
            raise ImproperlyConfiguredEnv(
                "SECRET_KEY must be a random string of at least 50 characters, not a published "
                "default (make one: python3 -c 'import secrets; print(secrets.token_urlsafe(50))')"
            )
        return key
    # A bare clone keeps one random key under var/ so sessions survive a restart.
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env_bool("DEBUG", False)


def _site_url() -> str | None:
    url = env_url("SITE_URL", {"http", "https"})
    if url is None:
        return None
    parts = urlsplit(url.strip())
    try:
        parts.port  # noqa: B018 - a port out of range or not a number raises here
    except ValueError:
        parts = None
    if not parts or not parts.hostname or parts.username or parts.path.strip("/") or parts.query:
        raise ImproperlyConfiguredEnv(
            f"SITE_URL={url!r} must be scheme://host[:port] only, e.g. http://192.168.1.5:8000"
        )
    return f"{parts.scheme}://{parts.netloc}"


# What the printed cards' QR codes and links carry (events/links.py): SITE_URL when set (e.g.
# http://192.168.1.5:8000, the laptop's Wi-Fi address), else the address the director's
# browser used. `manage.py serve` on every interface (HOST=0.0.0.0) with no ALLOWED_HOSTS
# set passes the addresses it found and printed as SERVE_HOSTS. Django's test runner
# (pytest-django included) adds «testserver» itself, under tests only.
SITE_URL = _site_url()
ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", *env_list("SERVE_HOSTS", [])]
)
if SITE_URL:
    _site_host = urlsplit(SITE_URL).hostname
    _site_host = f"[{_site_host}]" if ":" in _site_host else _site_host
    if _site_host not in ALLOWED_HOSTS and "*" not in ALLOWED_HOSTS:
        ALLOWED_HOSTS.append(_site_host)
CSRF_TRUSTED_ORIGINS = (
    env_list("CSRF_TRUSTED_ORIGINS", []) if env_str("CSRF_TRUSTED_ORIGINS") else []
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "events",
    "movements",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.headers.SecurityHeadersMiddleware",  # no-store on private pages; the CSP
    "config.pwa.OfflineMiddleware",  # X-Offline: keep, read before the no-store above
    # The public results' version document and kept copies, before sessions & co.
    "config.public_early.PublicEarlyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.locale.LocaleMiddleware",  # the public pages' language is in their address
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "events.afterwards.AfterResponseMiddleware",
    # Last, as axes asks: turns a locked login's answer into events.views.login_locked.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.locale.public_languages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
DATABASE_URL = env_url("DATABASE_URL", {"postgres", "postgresql", "sqlite"})
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
else:
    DATABASES = {
        "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": VAR_DIR / "db.sqlite3"}
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves a web server's threads and a worker at once. A write
    # transaction takes its lock when it begins (IMMEDIATE), so a writer waits its turn
    # (timeout, seconds) instead of failing with «database is locked» when a transaction that
    # began reading must upgrade; WAL lets readers go on while one writes. synchronous=FULL:
    # a commit is on the disk (the WAL file synced) before the answer that says «saved»
    # leaves, so a power cut loses no acknowledged sheet — NORMAL syncs only at checkpoints
    # and may lose the last commits (docs/operations.md, «Durability»; its cost:
    # bench/bench_durability.py).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
        **DATABASES["default"].get("OPTIONS", {}),
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Celery (one REDIS_URL feeds broker and results) ------------------------------------
REDIS_URL = env_url("REDIS_URL", {"redis", "rediss"})
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
    # Sending a task by name subscribes to its result first; with Redis down Celery's default
    # retries that 20 times a second apart, holding the request (and every thread of the
    # process sending one) 20 s. Once, then the senders log it and carry on (issue 21).
    CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
        "retry_policy": {"max_retries": 1, "interval_start": 0, "interval_step": 0.2}
    }
else:
    # Embedded default: a broker that needs no server, files under var/celery.
    _celery_dir = VAR_DIR / "celery"
    for _sub in ("queue", "processed", "results", "control"):
        (_celery_dir / _sub).mkdir(parents=True, exist_ok=True)
    # kombu's filesystem transport with each message written whole (config/broker.py).
    from kombu.transport import TRANSPORT_ALIASES

    TRANSPORT_ALIASES.setdefault("atomicfs", "config.broker:Transport")
    CELERY_BROKER_URL = "atomicfs://localhost//"  # a host named: kombu warns otherwise
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_celery_dir / "queue"),
        "data_folder_out": str(_celery_dir / "queue"),
        "processed_folder": str(_celery_dir / "processed"),
        "control_folder": str(_celery_dir / "control"),
        "store_processed": False,
    }
    CELERY_RESULT_BACKEND = f"file://{_celery_dir / 'results'}"
# --- Cache (the room clock documents, events/clockdoc.py) -------------------------------
# Shared by every process: the web server's workers and the Celery worker that fires the
# timers must see one cache, or a change could not reach the documents the others serve.
# Redis when REDIS_URL is set (the same database as Celery, under this key prefix), else
# files under var/cache/<prefix>. Values stored are JSON-safe dicts and strings.
CACHE_KEY_PREFIX = env_str("CACHE_KEY_PREFIX", "preference")
if not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", CACHE_KEY_PREFIX):
    raise ImproperlyConfiguredEnv("CACHE_KEY_PREFIX: 1–40 letters, digits, «_», «.» or «-»")
#: How long a cache call waits to connect to Redis: a Redis that is down, or a host that does
#: not answer, costs one request this long at most once a second per process; the others get
#: a miss at once (config/cache.py: with Redis down the pages are built from the database).
CACHE_CONNECT_TIMEOUT = float(env_int("CACHE_CONNECT_TIMEOUT_MS", 500)) / 1000
if CACHE_CONNECT_TIMEOUT <= 0:
    raise ImproperlyConfiguredEnv("CACHE_CONNECT_TIMEOUT_MS must be a positive number of ms")
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's RedisCache, keeping its Redis client and answering misses with Redis
            # down (config/cache.py).
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            # A Redis that connects but hangs: a read waits this long (its answers take
            # well under a millisecond).
            "OPTIONS": {"socket_connect_timeout": CACHE_CONNECT_TIMEOUT, "socket_timeout": 2},
        }
    }
else:
    CACHES = {
        "default": {
            # Django's file cache, not listing its folder on every write (config/cache.py).
            "BACKEND": "config.cache.FileCache",
            "LOCATION": str(VAR_DIR / "cache" / CACHE_KEY_PREFIX),
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            # One file a key: a room's documents per change and language, one per phone.
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    }

CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_RESULT_EXPIRES = 3600
CELERY_TASK_TIME_LIMIT = 60
CELERY_TASK_SOFT_TIME_LIMIT = 45
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The worker waits for a broker that is down as long as it takes (never gives up and exits).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_TIMEZONE = "UTC"
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "celery")
# The sweep fires anything overdue: after a worker or broker restart nothing is lost.
CLOCK_SWEEP_SECONDS = float(env_int("CLOCK_SWEEP_MS", 1000)) / 1000
CELERY_BEAT_SCHEDULE = {
    "clock-sweep": {"task": "events.clock_sweep", "schedule": CLOCK_SWEEP_SECONDS},
    # A backup every 10 minutes while a round runs (embedded default; events/backups.py).
    "backup-sweep": {"task": "events.backup_sweep", "schedule": 60},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
HEALTH_WORKER_TIMEOUT = float(env_int("HEALTH_WORKER_TIMEOUT_MS", 2000)) / 1000
#: /healthz computes its answer at most this often per process (config/health.py).
HEALTH_CACHE_SECONDS = float(env_int("HEALTH_CACHE_MS", 5000)) / 1000

# --- Auth -----------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Every login goes through axes first (events/throttle.py): LOGIN_FAILURES_ALLOWED failed
# logins for one name from one address, each within LOGIN_LOCK_SECONDS of the one before,
# lock that name from that address for LOGIN_LOCK_SECONDS. LOGIN_FAILURES_ALLOWED_NAME from
# all addresses together lock the name everywhere, so that a guesser rotating addresses has
# a cap too; it is three times the first, so that locking the owner out takes a stranger
# several addresses, each locked on its own first. Its attempts are kept in the database,
# so the login works with Redis down.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_FAILURES_ALLOWED = 5
LOGIN_FAILURES_ALLOWED_NAME = 3 * LOGIN_FAILURES_ALLOWED
LOGIN_LOCK_SECONDS = 15 * 60
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# LOGIN_FAILURES_ALLOWED; 0 while the name is locked across addresses (axes holds every
# group of AXES_LOCKOUT_PARAMETERS to one limit, so the name's cap is not a second group).
AXES_FAILURE_LIMIT = "events.throttle.failures_allowed"
AXES_COOLOFF_TIME = "events.throttle.lock_time"  # LOGIN_LOCK_SECONDS
AXES_RESET_ON_SUCCESS = True
# A try while locked (the owner's right password, too) does not prolong the lock.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_USERNAME_FORM_FIELD = "username"
AXES_USERNAME_CALLABLE = "events.throttle.username_of"
AXES_CLIENT_IP_CALLABLE = "events.throttle.client_address"
AXES_LOCKOUT_CALLABLE = "events.views.login_locked"
# No row per successful login (nothing reads them), no start-up banner in the logs.
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False
#: How many reverse proxies stand in front of the web server, each appending the address it
#: saw to X-Forwarded-For (docker-compose.yml's nginx: 1). 0: that header is not trusted.
PROXY_COUNT = env_int("PROXY_COUNT", 0)
if PROXY_COUNT < 0:
    raise ImproperlyConfiguredEnv(f"PROXY_COUNT={PROXY_COUNT} must be 0 or more")
# A player's PIN on the table's phones (scoring/sheets/proof.py), counted where a guesser pays:
# PIN_FAILURES_ALLOWED wrong tries for one player from one phone, within PIN_LOCK_SECONDS of
# the first, lock that phone out of his PIN until then (his right PIN from another phone,
# his own page and the director still work); PIN_FAILURES_ALLOWED_PLAYER from all phones
# together (a guesser who drops his cookies is a new phone) lock his PIN on every phone
# until then, and his own link clears that.
PIN_FAILURES_ALLOWED = 5
PIN_FAILURES_ALLOWED_PLAYER = 10
PIN_LOCK_SECONDS = 15 * 60
LOGIN_URL = "director:login"
LOGIN_REDIRECT_URL = "director:event_list"
LOGOUT_REDIRECT_URL = "director:login"

# --- Languages and time -----------------------------------------------------------------
LANGUAGE_CODE = "ru"
#: A form sent without its CSRF token: the site's 403 page, in the reader's language.
CSRF_FAILURE_VIEW = "events.links.csrf_failure"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env_timezone("TIME_ZONE", "Europe/Moscow")
USE_TZ = True

# --- Static files (served by the app itself: a hall may have no internet) --------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)
WHITENOISE_USE_FINDERS = True
# Hashed names, kept for ever by the browsers (config/staticfiles.py).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "config.staticfiles.HashedStaticFiles"},
}
WHITENOISE_AUTOREFRESH = DEBUG

# --- API ------------------------------------------------------------------------------
REST_FRAMEWORK = {
    # Token first: DRF answers a request without credentials 401 with the first class's
    # «WWW-Authenticate: Token» (the session class has no such header, so it would be 403);
    # the order decides nothing else — each class only reads its own credentials.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": [
        "events.parsers.BoundedJSONParser",  # a 100,000-deep body is a 400, not a crash
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "config.pagination.Pagination",
    "PAGE_SIZE": 100,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Duplicate Preference API",
    "DESCRIPTION": (
        "Events, players, movements, score sheets and the round clock: the director's "
        "pages for a program (docs/api.md).\n\n"
        "**Credentials.** Every operation but the public ladders needs the director's: "
        "his browser session (with its CSRF token), or a token sent as "
        "`Authorization: Token <key>`. The token is made on the server, once per "
        "director: `python manage.py drf_create_token <username>` prints it "
        "(`-r` replaces it with a new one; under Docker: `docker compose exec web python "
        "manage.py drf_create_token <username>`), or by the site's administrator at "
        "`/admin/` → «Tokens». Without credentials an operation answers 401 with "
        "`WWW-Authenticate: Token`.\n\n"
        "**Language.** This schema is in English. The answers — every message, every "
        "error naming its field — are in the language of `Accept-Language`: Russian by "
        "default, English on `Accept-Language: en`."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Every operation's error answers too (400, 401, 403, 404, 429): config/schema.py.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema.add_error_responses",
    ],
}

# Quiet logs: what a poll or a routine clock sweep does is not logged (hundreds of phones
# poll every second or two); what acts or fails is. The web server's access log is filtered
# the same way (config/gunicorn.py). Keys never reach a log: every line goes through the one
# handler, whose filter masks the phones' keys (config/logmask.py), as the access log does.
LOG_LEVEL = env_str("LOG_LEVEL", "INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "filters": {"mask_keys": {"()": "config.logmask.MaskKeys"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["mask_keys"],
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Django's defaults give these handlers of their own (a console with DEBUG, the mail
        # to ADMINS, runserver's lines), which would print «Not Found: /p/<key>/» unmasked:
        # none here, so that their records reach the root's handler.
        "django": {"handlers": [], "level": "INFO"},
        "django.server": {"handlers": [], "level": "INFO", "propagate": True},
        # «Task … received» / «succeeded» for every task, and beat's «Sending due task» for
        # every sweep: several lines a second. The tasks log what they did themselves.
        "celery.app.trace": {"level": "WARNING"},
        "celery.worker.strategy": {"level": "WARNING"},
        "celery.beat": {"level": "WARNING"},
        # Axes writes four lines for every login; its failures and locks are warnings.
        "axes": {"level": "WARNING"},
    },
}

# --- HTTPS and the browser's protections ------------------------------------------------
# Plain HTTP on loopback by default (make run). HTTPS=1 where the site is served over HTTPS:
# the session and CSRF cookies are then sent over HTTPS only. Behind the proxies of
# PROXY_COUNT, the outermost of which sets X-Forwarded-Proto (deploy/nginx.conf), Django
# reads the scheme from that header, so that it knows a request came over HTTPS (the CSRF
# check compares the page's https:// origin with it).
HTTPS = env_bool("HTTPS", False)
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
if PROXY_COUNT:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
if HTTPS:
    # A plain-HTTP request is sent to https:// (to SITE_URL's host and port when it is an
    # https address: the plain proxy of the compose file listens on another port than the
    # TLS one), but /healthz, which the compose healthchecks ask over plain HTTP from inside.
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    if SITE_URL and SITE_URL.startswith("https://"):
        SECURE_SSL_HOST = urlsplit(SITE_URL).netloc
    # The browser then asks this host over HTTPS only (HSTS), for HSTS_SECONDS (a year; 0:
    # no header). HSTS_INCLUDE_SUBDOMAINS=0 where a subdomain still serves plain HTTP (check
    # --deploy then warns W005, as it should). Browsers keep no HSTS for an IP address.
    SECURE_HSTS_SECONDS = env_int("HSTS_SECONDS", 365 * 24 * 3600)
    if SECURE_HSTS_SECONDS < 0:
        raise ImproperlyConfiguredEnv(f"HSTS_SECONDS={SECURE_HSTS_SECONDS} must be 0 or more")
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", True)
# Every page's own scripts, styles and images only, nothing inline, no eval
# (config/headers.py). The browser tests wait with expect(), never wait_for_function, which
# evaluates a string in the page.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
