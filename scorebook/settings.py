"""Scorebook settings. Every environment variable is read through a helper that fails loudly."""

import os
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse
from django.utils.csp import CSP

from scorebook.core import page_css

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str | None = None) -> str:
    value = os.environ.get(name, default)
    if value is None:
        raise ImproperlyConfigured(f"The environment variable {name} must be set.")
    return value


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    lowered = raw.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off", ""}:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use true or false).")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer.") from None


def env_choice(name: str, choices: tuple[str, ...], default: str | None) -> str:
    """One of ``choices``; ``default`` when unset (None: it must be set)."""
    raw = os.environ.get(name, default)
    if raw is None:
        raise ImproperlyConfigured(f"The environment variable {name} must be set: {', '.join(choices)}.")
    if raw.strip().lower() not in choices:
        raise ImproperlyConfigured(f"{name}={raw!r} is none of {', '.join(choices)}.")
    return raw.strip().lower()


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
if DEBUG:
    SECRET_KEY = env_str("SECRET_KEY", "dev-only-secret-key-not-for-production-use-0123456789")
else:
    SECRET_KEY = env_str("SECRET_KEY")
# Who may make an account (docs/operating.md, scorebook/accounts/sign_up.py): anyone ("open", the
# default of a development site: make run, the tests), only someone holding a club's invitation link
# ("invitation", the production setting the guide writes), or nobody but the operator's command and
# the links to choose a password ("closed"). Without DEBUG it must be set: a real site says who.
SIGNUP = env_choice("SIGNUP", ("open", "invitation", "closed"), "open" if DEBUG else None)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.forms",  # Django's widget templates, for FORM_RENDERER below
    "django_htmx",
    "axes",
    "scorebook.core",
    "scorebook.accounts",
    "scorebook.clubs",
    "scorebook.evenings",
    "scorebook.nights",
    "scorebook.ledger",
    "scorebook.league",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "scorebook.core.middleware.RequestSizeLimitMiddleware",  # 413 before a large body is read
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Compresses the pages (static files are already served compressed by WhiteNoise, above it,
    # so they never reach it): above every middleware that reads or changes the response body.
    # BREACH: Django's GZipMiddleware adds 0-99 random bytes to each gzip header
    # (max_random_bytes = 100, "Heal the BREACH"), and the CSRF token is masked per response.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "scorebook.accounts.sessions.AuthenticationMiddleware",  # Django's, given the user read with the session
    "scorebook.core.middleware.PrivatePagesMiddleware",  # a logged-in visitor's pages: private, no-cache
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # login limits (scorebook.accounts.limits): last, it answers a lockout
    "scorebook.clubs.middleware.FormerAddressMiddleware",  # a renamed club's old addresses redirect
    "scorebook.core.middleware.VanishedMiddleware",  # a write whose object was deleted under it: said, sent on
    "scorebook.core.races.RetryLostRaces",  # a write that lost a deadlock runs again once, or answers 409
]
# A session is read with its user in one query (scorebook/accounts/sessions.py).
SESSION_ENGINE = "scorebook.accounts.sessions"
CSRF_FAILURE_VIEW = "scorebook.core.views.csrf_failure"  # a translated page, or the reason in an htmx page's notices

# Every form field is drawn by templates/core/field.html: {{ form.name.as_field_group }}.
FORM_RENDERER = "scorebook.core.forms.FormRenderer"

ROOT_URLCONF = "scorebook.urls"
WSGI_APPLICATION = "scorebook.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

_DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
_SQLITE = _DATABASE_URL.startswith("sqlite:")
DATABASES = {
    "default": dj_database_url.parse(
        _DATABASE_URL,
        # PostgreSQL: a worker keeps its connection for a minute (opening one costs more than most
        # requests), checked before each request reuses it; SQLite opens a file, kept per request.
        conn_max_age=env_int("DB_CONN_MAX_AGE", 0 if _SQLITE else 60),
        conn_health_checks=True,
    )
}
if _SQLITE:
    # writers take the lock when their transaction begins, so two scorers queue instead of failing
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        # readers never wait for the writer; a commit is durable once in the log
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # tests use a file, as production does: an in-memory database shared between threads
    # locks whole tables and ignores the timeout
    # (one file per test process, so that two runs never share it)
    DATABASES["default"]["TEST"] = {
        "NAME": env_str("SQLITE_TEST_DB", str(Path(tempfile.gettempdir()) / f"scorebook-test-{os.getpid()}.sqlite3"))
    }
# Two pages keep what they computed from many evenings (a season's standings, a player's
# figures) under a key that changes with those evenings, so an entry is never stale. The cache
# lives in the database by default: the processes keep nothing, and every instance serving the
# site shares it (its table is made by the core app's migration). CACHE_BACKEND and
# CACHE_LOCATION name another (e.g. django.core.cache.backends.redis.RedisCache and its URL).
CACHES = {
    "default": {
        "BACKEND": env_str("CACHE_BACKEND", "django.core.cache.backends.db.DatabaseCache"),
        "LOCATION": env_str("CACHE_LOCATION", "scorebook_cache"),
    }
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français"), ("nl", "Nederlands"), ("en", "English")]
LOCALE_PATHS = [Path(env_str("LOCALE_DIR", str(BASE_DIR / "locale")))]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Brussels")
USE_I18N = True
USE_TZ = True

# docs/ is read from the checkout, as templates/ is: its rules and guides are the site's help (core/help.py),
# in the reader's language, and a variant's page is shown on the rules page of its evenings
# (evenings/rules_text.py); the guides' pictures of each language are static files under help/LANG/
DOCS_DIR = BASE_DIR / "docs"

STATIC_URL = "static/"
STATICFILES_DIRS = [
    BASE_DIR / "static",
    ("help/en", DOCS_DIR / "img"),
    ("help/fr", DOCS_DIR / "fr" / "img"),
    ("help/nl", DOCS_DIR / "nl" / "img"),
]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))  # where collectstatic writes
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": env_str(
            "STATICFILES_BACKEND",
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage",
        )
    },
}

AUTHENTICATION_BACKENDS = [
    "scorebook.accounts.limits.LoginLimitBackend",  # django-axes: refuses a locked-out name and address first
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "evening_list"  # also where signing up leads, and the installed app's start ({% start_url %})
LOGOUT_REDIRECT_URL = "home"
# The apps are layered (tests/test_layers.py): a club's and a season's pages are the league's, a later
# app than the clubs app that defines the models, so the project names them here (Django's own hook):
# links up through a setting, which the layer test reads and allows with this reason (as LOGIN_REDIRECT_URL's).
ABSOLUTE_URL_OVERRIDES = {
    "clubs.club": lambda club: reverse("club", args=[club.slug]),
    "clubs.season": lambda season: reverse("season", args=[season.club.slug, season.pk]),
}

_MAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend",
)
MAILERS: dict[str, dict[str, Any]] = {"default": {"BACKEND": _MAIL_BACKEND}}
if _MAIL_BACKEND.endswith("smtp.EmailBackend"):
    MAILERS["default"]["OPTIONS"] = {
        "host": env_str("EMAIL_HOST", "localhost"),
        "port": env_int("EMAIL_PORT", 587),
        "username": env_str("EMAIL_USER", ""),
        "password": env_str("EMAIL_PASSWORD", ""),
        "use_tls": env_bool("EMAIL_USE_TLS", True),
    }
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "scorebook@localhost")
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)


def env_addresses(name: str) -> list[str]:
    addresses = env_list(name, "")
    for address in addresses:
        if "@" not in address or " " in address:
            raise ImproperlyConfigured(f"{name}: {address!r} is not an e-mail address (list them separated by commas).")
    return addresses


# Who gets the traceback of a server error by mail (with DEBUG=false): ADMINS=ops@example.org,...
ADMINS = env_addresses("ADMINS")

# An error report (the mail to ADMINS) shows no cookie's value (scorebook/core/logs.py).
DEFAULT_EXCEPTION_REPORTER_FILTER = "scorebook.core.logs.ReporterFilter"

# Every log line goes to standard error (gunicorn and the service manager keep it); a server
# error's traceback also goes to ADMINS by mail when DEBUG is false.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
        "no_links": {"()": "scorebook.core.logs.RedactLinks"},  # no secret link in a log line
        "one_line_refusals": {"()": "scorebook.core.logs.OneLineRefusals"},  # a 403: who, what, why
    },
    "formatters": {"plain": {"format": "{asctime} {levelname} {name} {message}", "style": "{"}},
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "plain",
            "filters": ["one_line_refusals", "no_links"],
        },
        "mail_admins": {
            "class": "scorebook.core.logs.AdminEmailHandler",  # Django's, its whole mail masked
            "level": "ERROR",
            "filters": ["require_debug_false", "one_line_refusals", "no_links"],
        },
    },
    "root": {"handlers": ["stderr"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {"handlers": ["stderr", "mail_admins"], "level": env_str("LOG_LEVEL", "INFO"), "propagate": False},
        "axes": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},  # lockouts, not every start
    },
}

# --- security -------------------------------------------------------------------------
# No inline scripts anywhere: every script is a static file. One inline style only: the site's
# stylesheet written into the pages a phone opens first, allowed by the hash of its text
# (scorebook/core/page_css.py, read from static/css/scorebook.css when the process starts).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF, page_css.HASH],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
CSRF_COOKIE_HTTPONLY = True
SESSION_COOKIE_HTTPONLY = True
# Login limits (django-axes, scorebook/accounts/limits.py): 5 failures of one user name from one
# address lock that name for that address for 15 minutes; 10 failures of one account from any
# addresses close it for 15 minutes to every client but the devices and addresses it logged in
# from before; a password reset lifts both.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = "scorebook.accounts.limits.lockout_parameters"
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # a refused try is no guess: it neither counts nor extends
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "scorebook.accounts.limits.login_name"
AXES_CLIENT_IP_CALLABLE = "scorebook.accounts.limits.client_address"
AXES_LOCKOUT_CALLABLE = "scorebook.accounts.views.login.locked_out"
AXES_SENSITIVE_PARAMETERS = ["username", "ip_address", "password"]
# The reverse proxies in front of the site that set X-Forwarded-For (docs/operating.md). 0: none,
# the client's address is REMOTE_ADDR. Never more than there are: the client writes the rest.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
# No request body larger than this is read at all (the largest upload, an evening file, is 1 MB);
# the reverse proxy's client_max_body_size should match it (docs/operating.md).
REQUEST_MAX_BYTES = env_int("REQUEST_MAX_BYTES", 3 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440  # Django's default, stated: a request body larger than 2.5 MB is refused
FILE_UPLOAD_MAX_MEMORY_SIZE = 1_048_576

# Plain http on a club's own network, where no certificate can be had (docs/operating.md, "On a club's
# LAN, without TLS"): cookies a browser sends back over http, no redirect to https, no HSTS; and
# everything the phones send readable by anyone on that network. check --deploy says so at every run
# (scorebook.W001, core/checks.py), and the site's log when it starts.
PLAIN_HTTP = env_bool("PLAIN_HTTP", False)

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not PLAIN_HTTP)
    SESSION_COOKIE_SECURE = not PLAIN_HTTP
    CSRF_COOKIE_SECURE = not PLAIN_HTTP
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if PLAIN_HTTP else 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    if env_bool("BEHIND_TLS_PROXY", False):  # gunicorn behind nginx/caddy that terminates TLS
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
