"""The API schema says every answer an operation can give, errors included.

drf-spectacular documents each operation's success answers only; but every operation may
also answer 400 (a field or a query parameter that breaks a rule, named in the user's
language), 401/403 (no credentials, or not the director's own), 404 (no such event, sheet or
round *of his*), 415 (a body in no form it reads) and 429 (throttled), each as JSON. This post-processing hook adds them, with
the bodies the API really sends (``config.api.exception_handler``): ``{"detail": "…"}``, or
``{"field": ["…", …], …}`` naming the fields, or a list of messages."""

from __future__ import annotations

ERROR_BODY = {
    "oneOf": [
        {
            "type": "object",
            "description": "«detail»: what went wrong; or each field named with its problems",
            "additionalProperties": True,
        },
        {"type": "array", "items": {"type": "string"}, "description": "the problems"},
    ]
}

#: Answers every operation may give, and why.
ERRORS = {
    "400": "A field or a query parameter breaks a rule: each is named with the rule.",
    "401": "No credentials (a session or `Authorization: Token …`).",
    "403": "Credentials, but not allowed: not the director of this event, or no CSRF token.",
    "404": "No such event, or nothing of this event at that address.",
    "409": "Changed meanwhile: the state the caller named (`expected`) is no longer so; "
    "nothing was saved.",
    "415": "The body is in no form the API reads (JSON, a form, or multipart for files).",
    "429": "Too many requests.",
}

METHODS = ("get", "put", "patch", "post", "delete")


def add_error_responses(result, generator, request, public):
    """POSTPROCESSING_HOOKS entry: add the error answers to every operation."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("Error", ERROR_BODY)
    for item in result.get("paths", {}).values():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            responses = operation.setdefault("responses", {})
            for code, why in ERRORS.items():
                responses.setdefault(
                    code,
                    {
                        "description": why,
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}
                        },
                    },
                )
    return result
