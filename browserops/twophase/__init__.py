"""What the front doors share about the two phases (docs/design.md §5): where a plan comes from (a pack and its
input, a step file — as files for the CLI, as data for the MCP tools), the start URL, how a prepared plan, a run and
a bundle are shown, and the command a person runs in a terminal. The engine itself is ``plan/``; how each door asks
its person (a terminal, an MCP client's question) is the door's own.
"""

from browserops.twophase.evidence_view import confirmed_by, evidence_view
from browserops.twophase.sources import Source, input_digest, read_input, source_from_data, source_from_files, start_url
from browserops.twophase.views import plan_steps, prepared_json, run_command, run_json, shell_word

__all__ = [
    "Source", "confirmed_by", "evidence_view", "input_digest", "plan_steps", "prepared_json", "read_input",
    "run_command", "run_json", "shell_word", "source_from_data", "source_from_files", "start_url",
]
