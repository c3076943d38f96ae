"""The site's own settings for the benchmark, with two changes of place, none of behaviour.

- the collected static files go to the benchmark's temporary folder (``BENCH_STATIC_ROOT``);
- the tables are created from the models as they are now (as the test suite does with
  ``--no-migrations``), since other engineers change models while migrations lag behind.

DEBUG, the database, the secret key come from the environment, as for the production
server: ``run.py`` sets them.
"""

import os
from pathlib import Path

from scorebook.settings import *
from scorebook.settings import INSTALLED_APPS

if os.environ.get("BENCH_STATIC_ROOT"):
    STATIC_ROOT = Path(os.environ["BENCH_STATIC_ROOT"])

MIGRATION_MODULES = {app.rsplit(".", 1)[-1]: None for app in INSTALLED_APPS}
