"""One error shape for every 4xx and 5xx under /api/ (docs/api.md, "Errors"):

    {"error": {"code": "not_found", "message": "…", "fields": {"page": ["…"]}}}

`code` is stable and machine-readable, `message` is for people, `fields` names each bad
query parameter or body field with its messages (empty when no field is to blame).
DRF's errors come through `exception_handler`; everything else that answers under /api/
(an unknown path, Django's 404 and 500 pages, a CSRF refusal) is rewritten by
`ApiErrorMiddleware`, which also adds the rate-limit headers (api.throttles) and a
default Cache-Control.
"""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, JsonResponse
from django.utils.cache import patch_vary_headers
from rest_framework import exceptions
from rest_framework.views import exception_handler as drf_exception_handler

API_PREFIX = "/api/"

# The code of an error that reached us as a bare status (not a DRF exception).
STATUS_CODES = {
    400: ("bad_request", "the request is malformed"),
    401: ("not_authenticated", "sign in or send an API token"),
    403: ("permission_denied", "you may not do this"),
    404: ("not_found", "there is nothing here"),
    405: ("method_not_allowed", "this method is not allowed here"),
    406: ("not_acceptable", "no response in an accepted format"),
    429: ("throttled", "too many requests"),
    500: ("server_error", "the server failed; the error is logged"),
}
# Headers of the original response that the JSON answer keeps.
KEPT_HEADERS = ("Allow", "WWW-Authenticate", "Retry-After")


def error_body(code, message, fields=None):
    return {"error": {"code": code, "message": message, "fields": fields or {}}}


def _messages(detail, prefix=""):
    """DRF's nested error details as {"field" or "parent.field": [messages]}."""
    out = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            out.update(_messages(value, f"{prefix}{key}."))
    elif isinstance(detail, list) and any(isinstance(item, (dict, list)) for item in detail):
        for index, value in enumerate(detail):
            out.update(_messages(value, f"{prefix}{index}."))
    else:
        items = detail if isinstance(detail, list) else [detail]
        out[prefix.rstrip(".") or "non_field_errors"] = [str(item) for item in items]
    return out


def exception_handler(exc, context):
    """DRF's handler (status, WWW-Authenticate, Retry-After), with the body in the one shape."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(STATUS_CODES[404][1])
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a 500: Django's handler, then ApiErrorMiddleware
    if isinstance(exc, exceptions.ValidationError):
        fields = _messages(exc.detail)
        first = next(iter(fields.values()))[0]
        response.data = error_body("invalid", first, fields)
    else:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = error_body(code, str(exc.detail))
    return response


class ApiErrorMiddleware:
    """Under /api/: any error response that is not JSON becomes the one shape, and every
    response carries the rate limit the request was counted against."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not request.path.startswith(API_PREFIX):
            return response
        if response.status_code >= 400 and \
                not response.get("Content-Type", "").startswith("application/json"):
            code, message = STATUS_CODES.get(response.status_code,
                                             ("error", response.reason_phrase))
            answer = JsonResponse(error_body(code, message), status=response.status_code)
            for header in KEPT_HEADERS:
                if header in response:
                    answer[header] = response[header]
            response = answer
        # Revalidate by default (ETag, 304); answers that differ by token say so.
        response.setdefault("Cache-Control", "no-cache")
        patch_vary_headers(response, ("Authorization",))
        limit = getattr(request, "rate_limit", None)
        if limit is not None:
            response["X-RateLimit-Limit"], response["X-RateLimit-Remaining"], \
                response["X-RateLimit-Reset"] = (str(n) for n in limit)
        return response
