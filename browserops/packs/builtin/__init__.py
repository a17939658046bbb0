"""The domain packs browserops ships. Each folder is a pack like any other (``pack.py`` + its example input), and
is found only through the ``browserops.packs`` entry points in browserops' ``pyproject.toml``, exactly as a
third-party pack's; nothing imports these modules by name. Their tests live in ``tests/packs_builtin/``.
"""
