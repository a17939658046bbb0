"""Settings of the order desk (Учёт заказов): a small Django project whose only user interface is Django's admin under
the django-unfold theme, in Russian.

Where things live comes from the environment, so each test gets its own database and session folder:
``ORDERDESK_DB`` (the sqlite file) and ``ORDERDESK_SESSIONS`` (the file session store, kept apart from the
database so that reseeding the database between tasks keeps a signed-in browser profile signed in).
"""

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = "corpus-only-not-a-secret-5d2a9b"  # a local test deployment, never exposed
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

INSTALLED_APPS = [
    "unfold",  # before django.contrib.admin: its templates replace the admin's
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "sales",
]

MIDDLEWARE = [
    "orderdesk.requestlog.RequestLog",  # outermost: logs every answer, whatever the others did
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "orderdesk.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "orderdesk.wsgi.application"

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("ORDERDESK_DB", str(BASE_DIR / "orderdesk.sqlite3")),
        # Requests of one page (a save and the page's own background calls) overlap; wait for the writer, not fail.
        "OPTIONS": {"timeout": 30},
    }
}

# unfold's sign-in form sends no "next" when opened directly: land on the admin, not Django's /accounts/profile/.
LOGIN_REDIRECT_URL = "/admin/"

SESSION_ENGINE = "django.contrib.sessions.backends.file"
SESSION_FILE_PATH = os.environ.get("ORDERDESK_SESSIONS") or None

# Russian only: the admin's own texts from Django's ru catalogue, dates typed and shown as 20.05.2026.
LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", "Русский")]
TIME_ZONE = "Europe/Moscow"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

UNFOLD = {
    "SITE_TITLE": "Учёт заказов",
    "SITE_HEADER": "Учёт заказов",
    "SHOW_LANGUAGES": False,
}

# Errors with their tracebacks go to the console (the request log the tests keep), as DEBUG is off.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False}},
}
