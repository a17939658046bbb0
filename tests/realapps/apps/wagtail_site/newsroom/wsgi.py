"""WSGI entry point of the newsroom."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings")
application = get_wsgi_application()
