"""The real-pages site blanks off-machine resources and nothing else, and serves every saved page."""

from __future__ import annotations

import urllib.request

import pytest

from browserops.demo_site.real_pages import RealPagesSite, blank_offsite, page_names


def test_offsite_resources_are_blanked_and_links_kept() -> None:
    html = ('<script src="https://cdn.example/a.js"></script><img srcset="//img.example/x.png 2x" src=/local.png>'
            '<a href="https://elsewhere.example/">out</a><link rel=stylesheet href=\'http://s.example/s.css\'>'
            '<img src="data:image/png;base64,AAAA">')
    out = blank_offsite(html)
    assert 'src=""' in out and 'srcset=""' in out and "href=\"\"" in out
    assert "cdn.example" not in out and "img.example" not in out and "s.example" not in out
    assert '<a href="https://elsewhere.example/">' in out  # links are what the page is about: kept
    assert "src=/local.png" in out and "data:image/png" in out


def test_relative_resources_count_as_offsite_under_an_offsite_base() -> None:
    out = blank_offsite('<base href="https://news.example/"><img src="/pic.jpg"><a href="/story">s</a>')
    assert '<img src="">' in out and '<a href="/story">' in out and '<base href="https://news.example/">' in out


def test_every_saved_page_is_served() -> None:
    names = page_names()
    if not names:
        pytest.fail("no saved real pages found in tests/realweb/pages/")
    assert len(names) == 181
    with RealPagesSite() as site:
        for name in names[:5] + names[-5:]:
            with urllib.request.urlopen(site.url(name), timeout=10) as response:
                body = response.read()
            assert response.status == 200 and b"<" in body
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(site.url("../etc/passwd"), timeout=10)
