"""The club tests' fixtures (shared with the clubs tests)."""

from club_fixtures import *  # noqa: F403
