"""A throwaway database for a benchmark: PostgreSQL created fresh and dropped at the end, or\nthe embedded default (SQLite and the filesystem broker) in a folder of its own."""

import os
from contextlib import contextmanager
from urllib.parse import urlparse

BASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/preference")


def _sql(*statements: str) -> None:
    import psycopg2

    parsed = urlparse(BASE_URL)
    conn = psycopg2.connect(
        host=parsed.hostname or "127.0.0.1",
        port=parsed.port or 5432,
        user=parsed.username or "postgres",
        password=parsed.password,
        dbname="postgres",
    )
    conn.autocommit = True  # CREATE/DROP DATABASE cannot run in a transaction
    try:
        with conn.cursor() as cur:
            for statement in statements:
                cur.execute(statement)
    finally:
        conn.close()


@contextmanager
def throwaway_database(name: str, **environ: str):
    """Point DATABASE_URL (and Django) at a new database ``name``, migrated; drop it after."""
    os.environ.update(
        DATABASE_URL=urlparse(BASE_URL)._replace(path=f"/{name}").geturl(),
        DJANGO_SETTINGS_MODULE="config.settings",
        **environ,
    )
    _sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)", f"CREATE DATABASE {name}")
    try:
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        yield os.environ["DATABASE_URL"]
    finally:
        from django.db import connections

        connections.close_all()
        _sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextmanager
def throwaway_embedded(var_dir: str, **environ: str):
    """Point Django at ``make run``'s embedded default in ``var_dir`` — SQLite and the
    filesystem broker, no DATABASE_URL nor REDIS_URL — migrated; the folder is the caller's."""
    for name in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(name, None)
    os.environ.update(DJANGO_SETTINGS_MODULE="config.settings", VAR_DIR=var_dir, **environ)
    try:
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        yield ""
    finally:
        from django.db import connections

        connections.close_all()
