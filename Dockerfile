FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends gettext && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml README.md ./
RUN pip install --no-cache-dir -e .
COPY . .
RUN SECRET_KEY=build-only-build-only-build-only-000 python manage.py collectstatic --noinput \
    && python manage.py compilemessages --ignore '.venv/*'
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "-c", "python:config.gunicorn", "--bind", "0.0.0.0:8000"]
