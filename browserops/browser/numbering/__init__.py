"""The numbering engine: list what a person could act on in every frame and shadow root, number it, keep the
latest listing, draw the overlay badges, and find an element again by number or ``data-blind-id``.

It reads the page and never acts on it; acting is ``act/``, page-wide reading and waiting are ``page/``.
"""
