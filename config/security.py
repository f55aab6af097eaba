"""The Content-Security-Policy header (Django 5.2 has none of its own; SecurityMiddleware and
XFrameOptionsMiddleware send the other security headers)."""

from django.conf import settings


class ContentSecurityPolicyMiddleware:
    """Adds settings.CONTENT_SECURITY_POLICY to every response that has none, except under
    CONTENT_SECURITY_POLICY_EXEMPT (the API's docs pages, whose bundles start from inline
    scripts)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        policy = settings.CONTENT_SECURITY_POLICY
        if policy and not request.path.startswith(tuple(settings.CONTENT_SECURITY_POLICY_EXEMPT)):
            response.headers.setdefault("Content-Security-Policy", policy)
        return response
