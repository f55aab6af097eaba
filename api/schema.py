"""OpenAPI schema hooks (drf-spectacular's POSTPROCESSING_HOOKS)."""

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
