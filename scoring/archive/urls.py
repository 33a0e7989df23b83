"""A whole event as one file: its download (``director_event``, under
/director/events/<pk>/) and its upload (``director``, under /director/)."""

from django.urls import path

from scoring.archive import views

director_event = [path("archive.zip", views.event_archive_download, name="event_archive")]

director = [path("events/load/", views.event_archive_upload, name="event_archive_upload")]
