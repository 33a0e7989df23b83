"""Work left for after the response (queueing optional Celery tasks) waits for the response
to be sent, runs at once outside a request, never raises, and goes with a rolled-back
write."""

import logging

import pytest
from django.db import transaction
from django.http import HttpResponse
from django.test import RequestFactory

from events import afterwards


def _serve(view):
    return afterwards.AfterResponseMiddleware(view)(RequestFactory().get("/"))


# A response's close() sends request_finished, and Django then checks the connections a test
# of the database left open in this worker: allowed, or it fails by the order tests ran in.


@pytest.mark.django_db
def test_the_work_waits_until_the_response_has_been_sent():
    done = []

    def view(request):
        afterwards.after_response(lambda: done.append("work"))
        done.append("view")
        return HttpResponse("ok")

    response = _serve(view)
    assert done == ["view"]
    response.close()  # the WSGI server, after the response's last byte
    assert done == ["view", "work"]
    afterwards.after_response(lambda: done.append("outside"))  # no request open: at once
    assert done == ["view", "work", "outside"]


@pytest.mark.django_db
def test_a_failing_work_is_logged_and_the_next_still_runs(caplog):
    done = []

    def fail():
        raise RuntimeError("broker gone")

    def view(request):
        afterwards.after_response(fail)
        afterwards.after_response(lambda: done.append("second"))
        return HttpResponse("ok")

    with caplog.at_level(logging.ERROR, logger="events.afterwards"):
        _serve(view).close()
    assert done == ["second"]
    assert "failed" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_the_work_of_a_rolled_back_write_is_dropped_and_a_committed_one_runs():
    done = []

    def view(request):
        with pytest.raises(ValueError), transaction.atomic():
            afterwards.after_commit_and_response(lambda: done.append("rolled back"))
            raise ValueError
        with transaction.atomic():
            afterwards.after_commit_and_response(lambda: done.append("committed"))
        assert done == []  # committed, but the response is not out yet
        return HttpResponse("ok")

    _serve(view).close()
    assert done == ["committed"]
