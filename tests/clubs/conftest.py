"""The club tests' fixtures (shared with the league tests)."""

from club_fixtures import *  # noqa: F403
