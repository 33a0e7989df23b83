FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends gettext && rm -rf /var/lib/apt/lists/*
# The versions the suite passed on, each file checked against its hash (make lock).
COPY requirements.txt ./
RUN pip install --no-cache-dir --require-hashes -r requirements.txt
# The app runs as an unprivileged user, owning only var/ (the collected static files, the
# embedded default's files, the solver's compiled code): the code stays root's, read-only.
RUN useradd --system --uid 10001 --user-group --home-dir /app/var --no-create-home app
# .dockerignore keeps var/, the certificates' keys, .env, .git, .venv and tests out.
COPY . .
ENV VAR_DIR=/app/var NUMBA_CACHE_DIR=/app/var/numba
# A throwaway key for these two commands only (the running containers get theirs from
# SECRET_KEY, which docker-compose.yml requires).
RUN export SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
    && python manage.py collectstatic --noinput --verbosity 0 \
    && python manage.py compilemessages --ignore '.venv/*' \
    && chown -R app:app /app/var
USER app
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "-c", "python:config.gunicorn", "--bind", "0.0.0.0:8000"]
