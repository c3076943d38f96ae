from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scorebook.rules import registry


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

    def resolved(self):
        return registry.resolve(self.ruleset, self.overrides)
