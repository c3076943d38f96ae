"""gunicorn's settings beside the command line of docs/operating.md: gunicorn reads this file from the checkout it
is started in (its ``--config`` default, ``./gunicorn.conf.py``).

Its own log lines hide secret links as the site's do: gunicorn writes the address of a request it
could not finish ("Error handling request GET /t/<token>/" when a worker is stopped after its
timeout), and an address holds a table card's, a link's or an invitation's token. The filter is the
site's (``scorebook.core.logs.RedactLinks``), on every handler of gunicorn's logs."""

import sys
from pathlib import Path

from gunicorn import glogging

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the checkout, where the site's package is

from scorebook.core.logs import RedactLinks


class Logger(glogging.Logger):
    """gunicorn's logger, its lines cleaned of secret links."""

    def setup(self, cfg):
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.addFilter(RedactLinks())


logger_class = Logger
