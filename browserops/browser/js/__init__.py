"""The page-side JavaScript (``*.js``) and, beside each script, its typed Python side (``<script>.py``): one
function per page function, building the :mod:`browserops.browser.scripts` call and naming its result type."""
