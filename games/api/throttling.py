from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle


class JoinRateThrottle(SimpleRateThrottle):
    """Limits seat requests per client address (``JUNCTION_JOIN_RATE``, e.g. ``30/min``).

    A fixed window counted with the cache's atomic ``add`` + ``incr``: DRF's default
    read-history-then-write check let concurrent requests (Django runs each in its own
    thread) all pass before any wrote, so a parallel flood got through several times over."""

    scope = "join"

    def get_rate(self):
        return settings.JUNCTION_JOIN_RATE

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allow_request(self, request, view):
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        self.now = self.timer()
        window = int(self.now // self.duration)
        self.window_end = (window + 1) * self.duration
        counter = f"{key}:{window}"
        self.cache.add(counter, 0, timeout=self.duration + 1)
        try:
            count = self.cache.incr(counter)
        except ValueError:  # expired between add and incr: a fresh window
            self.cache.add(counter, 1, timeout=self.duration + 1)
            count = 1
        return count <= self.num_requests

    def wait(self):
        return max(1.0, self.window_end - self.now)
