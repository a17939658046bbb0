"""The agent: the LLM client, call parsing, prompt, context and tool hosts (the loop builds on these).

Only this package imports the LLM SDK (``anthropic``); everything else sees the SDK-independent
:class:`~browserops.agent.model_api.ModelTurn` and the :class:`~browserops.agent.model_api.Model` protocol.
"""
