"""WSGI entry point of the order desk."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "orderdesk.settings")
application = get_wsgi_application()
