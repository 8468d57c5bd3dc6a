"""Site-wide response headers Django does not set itself."""

from __future__ import annotations

from django.conf import settings
from django.utils.deprecation import MiddlewareMixin


class PermissionsPolicyMiddleware(MiddlewareMixin):
    """``Permissions-Policy: settings.PERMISSIONS_POLICY`` on every response that has none
    (Django 5.2 has no setting for it). MiddlewareMixin: runs in async or sync chains alike."""

    def process_response(self, request, response):
        policy = getattr(settings, "PERMISSIONS_POLICY", "")
        if policy and "Permissions-Policy" not in response:
            response["Permissions-Policy"] = policy
        return response
