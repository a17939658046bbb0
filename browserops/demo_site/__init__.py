"""The bundled demo site: a small multi-page web site for the README, the tests and the benchmarks.

Usage::

    from browserops.demo_site import DemoSite
    with DemoSite() as site:              # main + alt origin on free ports
        site.base_url, site.alt_url       # "http://127.0.0.1:PORT", "http://127.0.0.1:ALTPORT"
        site.state.submissions            # in-memory DemoState, thread-safe
        site.reset()

``serve_forever(host, port, alt_port)`` serves it in the foreground (``browserops demo-site``).

Test-only endpoints (on either origin; for tests, benchmarks and other processes, not for users):

* ``GET /__state`` -- the whole :class:`DemoState` as JSON.
* ``POST /__reset`` -- back to the initial state.
* ``POST /__variant`` with ``{"name": str, "value": str | null}`` -- set (or, with null, remove)
  ``state.variants[name]``. Known variants: ``submit_label`` (text of the expense form's submit
  button), ``merchant_label`` (label of its Merchant field), ``pay_label`` (text of /pay's button).
* ``POST /__draft`` with ``{"field": "value" | null, ...}`` -- merge into ``state.draft``, the saved
  draft that prefills ``/expense`` (merchant, amount, date, category, currency, billable,
  payment_method, notes).

Banner rules: ``/`` and ``/banners/*`` show their banner to visitors without a ``consent`` cookie
(``newsletter`` cookie for ``/banners/subscribe``); other pages only with ``?banner=1``;
``?nobanner=1`` always hides it and ``?banner=force`` always shows it.
"""

from browserops.demo_site.server import DemoSite, serve_forever
from browserops.demo_site.state import DemoState

__all__ = ["DemoSite", "DemoState", "serve_forever"]
