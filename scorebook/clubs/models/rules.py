import hashlib
import json
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scorebook.rules import registry
from scorebook.rules.model import Ruleset, to_dict


def rules_version(overrides: dict | None) -> str:
    """A fingerprint of a club's stored overrides: a form saved over other changes is noticed."""
    text = json.dumps(overrides or {}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class HouseRules(models.Model):
    """A club's changes to one preset, in the shape ``manage.py rules show`` prints (only what differs)."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="house_rules")
    ruleset = models.CharField(_("variant"), max_length=20, choices=registry.choices())
    overrides = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "ruleset"], name="house_rules_unique")]

    def __str__(self) -> str:
        return f"house rules of {self.club_id} for {self.ruleset}"

    def resolved(self) -> Ruleset:
        return registry.resolve(self.ruleset, self.overrides)

    def changed_figures(self) -> int:
        """How many figures of the preset the club changed (a payout cell counts as two)."""
        return changed_figures(to_dict(registry.get(self.ruleset)), to_dict(self.resolved()))


def _leaves(value: Any) -> int:
    if isinstance(value, dict):
        return sum(_leaves(v) for v in value.values())
    if isinstance(value, list | tuple):
        return sum(_leaves(v) for v in value)
    return 0 if value is None else 1


def changed_figures(base: Any, new: Any) -> int:
    """The number of figures (leaves of the rules' dict shape) that differ between two shapes.

    A figure present on one side only (a trick cell that exists since ``needs`` moved,
    a claim turned off) counts once per figure it holds.
    """
    if isinstance(base, dict) and isinstance(new, dict):
        return sum(changed_figures(base.get(k), new.get(k)) for k in base.keys() | new.keys())
    if isinstance(base, list | tuple) and isinstance(new, list | tuple) and len(base) == len(new):
        return sum(changed_figures(a, b) for a, b in zip(base, new, strict=True))
    if base == new:
        return 0
    return max(_leaves(base), _leaves(new), 1)
