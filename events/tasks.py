from celery import shared_task


@shared_task(name="events.ping", acks_late=False)
def ping(token: str) -> str:
    """Answer the health check: proves a worker takes tasks from the broker right now."""
    return token
