"""The confirm phrase: three words and four hex digits derived from the plan's canonical digest.

The digest covers the whole plan (every step, value, target, the request id and creation time), so the phrase
confirms exactly the plan that was reviewed: editing plan.json — a value, a target, a side-effect class —
gives a different phrase, and the old one no longer runs it. Words make the phrase easy to read aloud and to
type; 40 bits are plenty against a typo or a stale copy-paste (it is not a password).
"""

from __future__ import annotations

import hashlib
import hmac
import re

import orjson

from browserops.plan.model.document import BrowserPlan

WORDS: tuple[str, ...] = (
    "acorn", "actor", "adobe", "aisle", "album", "alloy", "amber", "angle", "ankle", "apple", "apron", "arbor",
    "arena", "argon", "arrow", "aspen", "atlas", "attic", "audio", "autumn", "badge", "bagel", "baker", "balsa",
    "bamboo", "banjo", "barley", "basil", "basin", "beach", "beacon", "beetle", "bench", "berry", "birch", "bison",
    "blade", "blaze", "bloom", "bluff", "bonus", "boot", "bottle", "brick", "bridge", "brook", "broom", "bucket",
    "buckle", "bugle", "butter", "cabin", "cactus", "camel", "canal", "candle", "canoe", "canyon", "carbon", "cargo",
    "carpet", "castle", "cedar", "cellar", "chalk", "cherry", "chess", "chimney", "cider", "cinder", "circle",
    "citrus", "clover", "cobalt", "cocoa", "comet", "copper", "coral", "cotton", "cougar", "cradle", "crane",
    "crater", "crayon", "creek", "cricket", "crystal", "cupola", "daisy", "delta", "denim", "desert", "dial",
    "diamond", "dolphin", "donkey", "dove", "dragon", "drum", "dune", "eagle", "easel", "echo", "eclipse", "elbow",
    "elm", "ember", "emerald", "engine", "falcon", "feather", "fern", "ferry", "fiddle", "fig", "flame", "flint",
    "flute", "forest", "fossil", "fox", "garden", "garnet", "gazelle", "geyser", "ginger", "glacier", "globe",
    "goose", "granite", "grape", "gravel", "guitar", "hammer", "harbor", "harp", "hazel", "heron", "hickory",
    "honey", "hornet", "husky", "igloo", "indigo", "iris", "island", "ivory", "jacket", "jade", "jasmine", "jelly",
    "jigsaw", "juniper", "kayak", "kettle", "kiwi", "koala", "ladder", "lagoon", "lantern", "larch", "lava", "lemon",
    "lentil", "lily", "linen", "lizard", "lobster", "locket", "lotus", "lumber", "lynx", "magnet", "mango", "maple",
    "marble", "meadow", "melon", "mesa", "meteor", "mint", "mirror", "mitten", "monsoon", "moose", "mosaic", "moss",
    "nectar", "needle", "nickel", "nutmeg", "oak", "oasis", "ocean", "olive", "onion", "opal", "orbit", "orchid",
    "otter", "owl", "paddle", "panda", "papaya", "parrot", "peach", "pebble", "pecan", "pepper", "piano", "pigeon",
    "pillow", "pine", "planet", "plum", "pocket", "pollen", "pony", "poppy", "prism", "pumpkin", "quail", "quartz",
    "quill", "rabbit", "radish", "raven", "reef", "ribbon", "river", "robin", "rocket", "saddle", "salmon", "sandal",
    "sapphire", "scarf", "shell", "silver", "spruce", "squid", "summit", "sunset", "swan", "tango", "thistle",
    "tiger", "topaz", "tulip", "tundra", "turtle", "violet", "walnut", "willow", "zebra", "zinc",
)
assert len(WORDS) == 256 and len(set(WORDS)) == 256

_SEPARATORS = re.compile(r"[\s_-]+")


def canonical_json(plan: BrowserPlan) -> bytes:
    """The plan as sorted-key, whitespace-free JSON: equal plans give equal bytes, however plan.json was formatted."""
    return orjson.dumps(plan.model_dump(mode="json", by_alias=True), option=orjson.OPT_SORT_KEYS)


def plan_digest(plan: BrowserPlan) -> str:
    """SHA-256 (hex) of the canonical plan."""
    return hashlib.sha256(canonical_json(plan)).hexdigest()


def confirm_phrase(plan: BrowserPlan) -> str:
    """E.g. ``amber-falcon-river-3f2a``: three words from the first three digest bytes, then two more bytes in hex."""
    digest = bytes.fromhex(plan_digest(plan))
    return "-".join([WORDS[digest[0]], WORDS[digest[1]], WORDS[digest[2]], digest[3:5].hex()])


def normalize_phrase(phrase: str) -> str:
    """Case, surrounding space and the choice of separators (space, '-', '_') do not matter."""
    return "-".join(part for part in _SEPARATORS.split(phrase.strip().lower()) if part)


# Any plan's phrase inside a longer text, however it is spaced or cased ("Ember thistle_dial 7BF3").
_WORD = "(?:" + "|".join(WORDS) + ")"
_PHRASE_IN_TEXT = re.compile(rf"(?<![a-z0-9]){_WORD}(?:[\s_-]+{_WORD}){{2}}[\s_-]+[0-9a-f]{{4}}(?![a-z0-9])",
                             re.IGNORECASE)


def contains_phrase(text: str) -> bool:
    """Whether ``text`` holds something shaped like a confirm phrase (of any plan): three of the phrase words and
    four hex digits. A door whose caller must never confirm (the MCP tools, called by a model) refuses such text."""
    return _PHRASE_IN_TEXT.search(text) is not None


def verify_phrase(plan: BrowserPlan, phrase: str) -> bool:
    """Whether ``phrase`` confirms this exact plan (constant-time comparison)."""
    return hmac.compare_digest(normalize_phrase(phrase).encode(), confirm_phrase(plan).encode())
