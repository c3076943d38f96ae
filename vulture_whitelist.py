"""Names that vulture (make lint) takes for dead code, but that something other than the Python code
of scorebook/ and bench/ reads: the settings by dotted path, Django and the libraries by name, the
templates. Each line says where the name is and who reads it. Never imported: vulture only reads the
names. ([tool.vulture] in pyproject.toml lists the patterns of Django's own hooks.)"""

from typing import Any

_: Any = None  # any object

# --- named by a dotted path in scorebook/settings.py or scorebook/urls.py ----------------------------
_.lockout_parameters  # accounts/limits.py: AXES_LOCKOUT_PARAMETERS
_.LoginLimitBackend  # accounts/limits.py: AUTHENTICATION_BACKENDS
_.original_response  # accounts/views/login.py, locked_out: AXES_LOCKOUT_CALLABLE, which django-axes calls with it
_.FormerAddressMiddleware  # clubs/middleware.py: MIDDLEWARE
_.RequestSizeLimitMiddleware  # core/middleware.py: MIDDLEWARE
_.PrivatePagesMiddleware  # core/middleware.py: MIDDLEWARE
_.VanishedMiddleware  # core/middleware.py: MIDDLEWARE
_.RetryLostRaces  # core/races.py: MIDDLEWARE
_.FormRenderer  # core/forms.py: FORM_RENDERER
_.RedactLinks  # core/logs.py: LOGGING's filters
_.OneLineRefusals  # core/logs.py: LOGGING's filters
_.ReporterFilter  # core/logs.py: DEFAULT_EXCEPTION_REPORTER_FILTER
_.forbidden  # core/views.py: handler403 (scorebook/urls.py)
_.csrf_failure  # core/views.py: CSRF_FAILURE_VIEW
_.HASH  # core/page_css.py: SECURE_CSP's style-src
_.STATIC_ROOT  # bench/settings.py: the benchmark's settings, read by Django

_.not_found, _.handler404  # core/views.py, scorebook/urls.py: Django's handler404 names the view by its path
_.new_ranking_token  # nights/models.py: the default of nights.0001's ranking_token (a migration imports it)

# --- read by Django or a library by name -----------------------------------------------------------
_.exc_text  # core/logs.py: logging's formatter reads the record's cached traceback
_.plain_http  # core/checks.py: a check Django's registry runs (check --deploy)
_.get_safe_cookies  # core/logs.py: Django's error report asks its filter for the cookies it may show
_.input_type  # core/cleaning.py, DateInput: Django's widget renders <input type=...> from it
_.disabled  # clubs/rules_forms/base.py: Django, a disabled form field
_.max_time_in_seconds  # bench/settle_up.py: OR-Tools, the CP-SAT solver's parameters
_.num_workers  # bench/settle_up.py: OR-Tools
_.gunicorn_command  # bench/deployment.py: docs/operating.md's gunicorn command, for tests (deployed_site, slow_clients)

# --- model fields and choices: the ORM (by keyword), the admin and the backup read them by name ----
_.changed_at  # clubs/models/club.py
_.joined_at  # clubs/models/club.py
_.token_hash  # clubs/models/club.py, evenings/models.py: looked up by keyword
_.updated_by  # clubs/models/rules.py
_.closed_at  # evenings/models.py, nights/models.py
_.closed_by  # evenings/models.py
_.reprint  # nights/models.py
_.detail  # nights/models.py (a night's log), core/forms.py (Choice: templates)
_.share_token  # league/backup_schema.py: a field of the club backup's file
_.FEWER_EVENINGS  # clubs/models/season.py: a stored tie-break (league/standings.py reads it by value)
_.HEARTS, _.DIAMONDS, _.CLUBS, _.SPADES  # rules/model.py, Trump: read from the evening file by value

_.used_at  # accounts/models.py PasswordLink: the queries filter on it (used_at__isnull)

# --- form fields: Django reads a form's declared fields ---------------------------------------------
_.confirm_overlap  # clubs/season_forms.py
_.date_from  # clubs/season_forms.py
_.date_to  # clubs/season_forms.py
_.deal_number  # evenings/forms.py
_.confirm_stake  # evenings/forms.py
_.guests  # nights/forms.py
_.different_people  # nights/forms.py
_.direction  # ledger/forms.py

# --- read only by the templates ----------------------------------------------------------------------
_.legend  # clubs/rules_forms/base.py
_.changed_names  # clubs/rules_forms/base.py
_.manche_rows  # clubs/rules_forms/classic.py
_.half_rows  # clubs/rules_forms/grid.py
_.addable  # clubs/services.py
_.asks_stake  # core/fields.py (templates/evenings/new.html)
_.may_reopen  # evenings/access.py
_.baseline, _.leader_x, _.colour, _.dash, _.points_attr, _.css_class  # evenings/charts.py
_.zero_y, _.view_box, _.font_size, _.y_label_x, _.x_tick_end  # evenings/charts.py
_.description, _.deal_version, _.reseat, _.moved_totals, _.effects  # evenings/display.py
_.shortened, _.amount_value  # evenings/display.py
_.per_declarer_fields, _.point_fields, _.player_fields  # evenings/forms.py
_.paid_at, _.paid_by  # evenings/views/settle.py
_.previous_date  # league/standings.py
_.sessions_closed  # nights/results.py
_.origin_label  # evenings/rules_display.py (templates/evenings/rules.html, _rules_line.html)
_.sections  # clubs/rules_forms/*.py (templates/clubs/rules/), evenings/rules_text.py (templates/evenings/rules.html)
