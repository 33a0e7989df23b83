"""The API's pages (DEFAULT_PAGINATION_CLASS). Its own module: config.api imports the apps'
views, which DRF's settings would import back while they load."""

from rest_framework.pagination import LimitOffsetPagination

from events.params import api_query_int


class Pagination(LimitOffsetPagination):
    """``?limit=&offset=`` read by the one integer parser (events.params): a bad value is a
    400 naming it, never a 500 (a limit past 64 bits once reached PostgreSQL); at most
    ``max_limit`` rows a page."""

    max_limit = 1000

    def get_limit(self, request):
        limit = api_query_int(request, self.limit_query_param, maximum=self.max_limit)
        return self.default_limit if limit is None else limit

    def get_offset(self, request):
        return api_query_int(request, self.offset_query_param, minimum=0) or 0
