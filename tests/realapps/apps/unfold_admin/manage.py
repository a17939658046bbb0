"""Django's command-line utility for the order desk (the corpus' Django admin under django-unfold, in Russian)."""

import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "orderdesk.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
