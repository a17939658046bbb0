"""Origin patterns and settings: what each pattern admits, bad patterns refused with BROWSER_CONFIG_INVALID."""

from __future__ import annotations

from pathlib import Path

import pytest

from browserops.config import load_settings
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.origins import OriginRules, origin_of, same_site


@pytest.mark.parametrize(("pattern", "url", "allowed"), [
    ("https://example.com", "https://example.com/a?b=1", True),
    ("https://example.com", "http://example.com/", False),
    ("https://example.com", "https://evil.com/?u=https://example.com", False),
    ("example.com", "http://example.com:8080/x", True),
    ("example.com", "https://www.example.com/", False),
    ("*.example.com", "https://a.b.example.com/", True),
    ("*.example.com", "https://example.com/", True),
    ("*.example.com", "https://notexample.com/", False),
    ("http://127.0.0.1:8000", "http://127.0.0.1:8001/", False),
    ("localhost:*", "http://localhost:9/", True),
    ("https://bücher.de", "https://xn--bcher-kva.de/", True),
    ("file://", "file:///tmp/a.html", True),
    ("https://example.com", "file:///tmp/a.html", False),
    ("https://example.com", "about:blank", True),
    ("https://example.com", "data:text/html,hi", True),
])
def test_an_allowed_pattern_admits_its_origins_only(pattern: str, url: str, allowed: bool) -> None:
    assert (OriginRules.of([pattern]).refusal(url) is None) is allowed


def test_blocked_wins_and_empty_allowed_means_any() -> None:
    rules = OriginRules.of([], ["*.ads.example"])
    assert rules.refusal("https://site.example/") is None
    assert rules.refusal("https://x.ads.example/") == "blocked_origins: *.ads.example"
    assert OriginRules.of(["*"], ["bad.example"]).refusal("https://bad.example/") == "blocked_origins: bad.example"
    assert not OriginRules().active and OriginRules().refusal("https://any.example/") is None


def test_a_narrowed_rule_set_with_nothing_left_allows_nothing() -> None:
    rules = OriginRules.of(["https://a.example"]).narrowed([origin_of("https://b.example/x")], by="the plan")
    assert rules.refusal("https://a.example/") == "the plan: (none)"
    with pytest.raises(BrowserOpsError) as caught:
        rules.check("https://b.example/")
    assert caught.value.code is ErrorCode.ORIGIN_BLOCKED and caught.value.details["rule"] == "the plan: (none)"


def test_settings_take_lists_from_env_and_refuse_bad_patterns(tmp_path: Path) -> None:
    env = {"BROWSEROPS_ALLOWED_ORIGINS": "https://a.example, *.b.example;localhost:8000"}
    settings = load_settings(tmp_path, env=env).settings
    assert settings.allowed_origins == ["https://a.example", "*.b.example", "localhost:8000"]
    for bad in ("https://a.example/path", "a.*.example", "host:99999"):
        with pytest.raises(BrowserOpsError) as caught:
            load_settings(tmp_path, env={}, overrides={"blocked_origins": bad})
        assert caught.value.code is ErrorCode.CONFIG_INVALID and "blocked_origins" in caught.value.message


@pytest.mark.parametrize(("url", "other", "same"), [
    ("https://www.example.com/save", "https://api.example.com/v1/orders", True),  # one registrable domain
    ("https://app.example.co.uk/", "https://cdn.example.co.uk/x", True),  # a two-label public suffix
    ("https://example.com/", "https://collector.analytics.net/b", False),  # an analytics site
    ("https://alice.github.io/", "https://bob.github.io/", False),  # a private suffix: two sites
    ("http://127.0.0.1:8000/a", "http://127.0.0.1:9000/b", True),  # ports do not make sites
    ("http://127.0.0.1:8000/a", "http://localhost:8000/b", False),  # two loopback names are two sites
    ("about:blank", "about:blank", False),  # no network host: no site
])
def test_same_site_draws_the_line_browsers_draw(url: str, other: str, same: bool) -> None:
    assert same_site(url, other) is same
