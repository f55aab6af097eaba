"""The OpenAPI schema: the error responses every operation documents, and the hooks
(drf-spectacular's POSTPROCESSING_HOOKS)."""

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.permissions import AllowAny

from games.variants import variant_ids


def variant_enums(result, generator, request, public):
    """Every `variant` query parameter lists the rule sets registered when the schema is
    built, besides its own values (e.g. "all"): the views read the registry per request."""
    ids = set(variant_ids())
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                if parameter.get("name") == "variant" and parameter.get("in") == "query":
                    schema = parameter.setdefault("schema", {"type": "string"})
                    schema["enum"] = sorted(ids | set(schema.get("enum", [])))
    return result


class ErrorFieldsSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="stable, machine-readable: invalid, not_found, "
                                           "not_authenticated, permission_denied, "
                                           "hand_in_progress, throttled, …")
    message = serializers.CharField(help_text="for people")
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="each bad query parameter or body field with its messages (may be empty)")


class ErrorSerializer(serializers.Serializer):
    """Every 4xx and 5xx answer under /api/ (api.errors)."""

    error = ErrorFieldsSerializer()


RATE_LIMIT_HEADERS = {
    "X-RateLimit-Limit": "requests allowed in the window of this endpoint's scope",
    "X-RateLimit-Remaining": "requests left in the window",
    "X-RateLimit-Reset": "seconds until the window frees a request",
}
CACHE_HEADERS = {
    "ETag": "a hash of the body: send it back in If-None-Match to get 304 while unchanged",
    "Last-Modified": "when the resource last changed (hands and players): send it back in "
                     "If-Modified-Since",
    "Cache-Control": "how long a cache may keep the answer",
}


class ErrorDocumentingAutoSchema(AutoSchema):
    """drf-spectacular's schema, plus what every operation can answer besides 200: the
    error shape for each status it can give, and the rate-limit and caching headers."""

    def get_operation(self, *args, **kwargs):
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        responses = operation["responses"]
        parameters = operation.get("parameters", [])
        errors = {"401": "the token or session is not valid (or, where one is needed, missing)",
                  "429": "too many requests: wait Retry-After seconds"}
        if "requestBody" in operation or any(p["in"] == "query" for p in parameters):
            errors["400"] = "a query parameter or field is invalid (named in `fields`)"
        if any(p["in"] == "path" for p in parameters):
            errors["404"] = "there is no such object"
        if not all(isinstance(p, AllowAny) for p in self.view.get_permissions()) \
                or getattr(self.view, "may_refuse", False):
            errors["403"] = "not allowed"
        for status, description in sorted(errors.items()):
            responses.setdefault(status, self._get_response_for_code(
                OpenApiResponse(ErrorSerializer, description=description), status))
        for status, response in responses.items():
            headers = response.setdefault("headers", {})
            for name, description in RATE_LIMIT_HEADERS.items():
                headers[name] = {"schema": {"type": "integer"}, "description": description}
            if status == "200" and self.method == "GET":
                for name, description in CACHE_HEADERS.items():
                    headers[name] = {"schema": {"type": "string"}, "description": description}
        if self.method == "GET":
            responses.setdefault("304", {"description": "not modified since the ETag or date "
                                                        "sent (If-None-Match, If-Modified-Since)"})
        return operation
