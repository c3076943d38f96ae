"""The site's own settings for the benchmark, with one change of place, none of behaviour.

- the collected static files go to the benchmark's temporary folder (``BENCH_STATIC_ROOT``).

The schema is made by the migrations, as on a server.

DEBUG, the database, the secret key come from the environment, as for the production
server: ``run.py`` sets them.
"""

import os
from pathlib import Path

from scorebook.settings import *

if os.environ.get("BENCH_STATIC_ROOT"):
    STATIC_ROOT = Path(os.environ["BENCH_STATIC_ROOT"])
