"""A member removed before claims were withdrawn with the membership left his "this is me" behind:
listed for the admins, and impossible to approve. Those claims go now."""

from django.db import migrations
from django.db.models import Exists, OuterRef


def withdraw(apps, schema_editor):
    PlayerClaim = apps.get_model("clubs", "PlayerClaim")
    Membership = apps.get_model("clubs", "Membership")
    member = Membership.objects.filter(club=OuterRef("player__club"), user=OuterRef("user"))
    PlayerClaim.objects.filter(~Exists(member)).delete()


class Migration(migrations.Migration):
    dependencies = [("clubs", "0001_initial")]
    operations = [migrations.RunPython(withdraw, migrations.RunPython.noop)]
