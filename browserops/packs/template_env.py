"""The jinja2 environment that writes pack files from ``packs/templates/*.j2`` (``pack new``, with or without
``--from-steps``). Generated text is Python source and YAML, so nothing is HTML-escaped; values enter the
Python templates through ``py`` (``repr``), never as raw text."""

from __future__ import annotations

import pprint
from functools import cache
from typing import Any

import jinja2
import yaml

from browserops.packs.code_lines import wrap


def _yaml(value: Any) -> str:
    return str(yaml.safe_dump(value, allow_unicode=True, sort_keys=False)).rstrip("\n")


def _wrap(expr: str, indent: int, end: str = ",") -> str:
    return "\n".join(wrap(expr, indent, end))


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("browserops.packs", "templates"), autoescape=False,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
    env.filters.update(py=repr, wrap=_wrap, yaml=_yaml,
                       pformat=lambda v: pprint.pformat(v, width=110, sort_dicts=False))
    return env


def render(template: str, **context: Any) -> str:
    """``templates/<template>`` with ``context``; a name the template uses but is not given is an error."""
    return _environment().get_template(template).render(**context)
