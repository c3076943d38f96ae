"""Another club's phone, in a process of its own (as a second gunicorn worker serves it): it
records deals on one evening, one after the other, for as long as its standard input stays open,
and writes how long each save took, one number (seconds) a line, as soon as it is answered.

    python tests/other_phone.py EVENING_PK USER_PK   (DATABASE_URL: the database to write to)

Used by tests/nights/test_big_night_while_phones_score.py: the night's writes and the phone's are
then two processes, as deployed (two threads of one process would also wait for each other's
Python, which is not what is measured)."""

from __future__ import annotations

import os
import select
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorebook.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from scorebook.evenings import services
    from scorebook.evenings.models import Evening

    evening = Evening.objects.get(pk=int(sys.argv[1]))
    user = get_user_model().objects.get(pk=int(sys.argv[2]))
    deal = {"contract": "samen-9", "declarers": ["Bert", "Dina"], "tricks": 9}
    n = 0
    while not select.select([sys.stdin], [], [], 0.05)[0]:  # until the test closes our input
        started = time.monotonic()
        services.record_deal(evening, deal, user, request_key=f"other-phone-{os.getpid()}-{n}")
        sys.stdout.write(f"{time.monotonic() - started:.3f}\n")
        sys.stdout.flush()
        n += 1


if __name__ == "__main__":
    main()
