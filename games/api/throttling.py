from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle


class JoinRateThrottle(SimpleRateThrottle):
    """Limits seat requests per client address (``JUNCTION_JOIN_RATE``, e.g. ``30/min``)."""

    scope = "join"

    def get_rate(self):
        return settings.JUNCTION_JOIN_RATE

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
