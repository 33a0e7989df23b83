"""Included by config/api.py under /api/v1/."""

from movements.api import api_urls

urlpatterns = api_urls
