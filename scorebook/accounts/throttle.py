"""Login throttling: after repeated failures, an account (or an address) must wait.

Failures are rows in the database, so the limit holds across every worker process.
"""

from datetime import timedelta

from django.utils import timezone

from .models import FailedLogin

WINDOW = timedelta(minutes=15)
PER_USERNAME = 5  # failures for one user name within the window
PER_ADDRESS = 20  # failures from one address within the window (guessing many names)


def _recent():
    return FailedLogin.objects.filter(at__gte=timezone.now() - WINDOW)


def blocked(username: str, address: str) -> bool:
    username = username.strip().casefold()
    recent = _recent()
    return (
        bool(username) and recent.filter(username=username).count() >= PER_USERNAME
    ) or recent.filter(address=address).count() >= PER_ADDRESS


def record_failure(username: str, address: str) -> None:
    FailedLogin.objects.create(username=username.strip().casefold()[:150], address=address)
    FailedLogin.objects.filter(at__lt=timezone.now() - 2 * WINDOW).delete()  # keep the table small


def clear(username: str) -> None:
    FailedLogin.objects.filter(username=username.strip().casefold()).delete()
