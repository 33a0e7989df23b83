"""The API's JSON parser: DRF's, with the depth of a body bounded (events.jsondepth)."""

import codecs

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from events import jsondepth


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.getreader(encoding)(stream).read()
            return jsondepth.loads(text, parse_constant=self._refuse_constant)
        except jsondepth.TooDeep as error:
            raise ParseError(
                _("The JSON body is nested %(depth)d levels deep; at most %(most)d are allowed.")
                % {"depth": error.depth, "most": error.most}
            ) from None
        except ValueError as error:
            raise ParseError(_("JSON parse error - %(error)s") % {"error": error}) from None

    @staticmethod
    def _refuse_constant(name):
        raise ValueError(f"{name} is not a number")
