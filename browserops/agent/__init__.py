"""The agent: the model client, call parsing, prompt, transcript, observation, the policy gate's page reading and
the tool hosts; one run of the loop lives in ``run/``, and the ways to drive one (to its end, as the
``browser_task`` sub-agent, as a read-only exploration) beside it. Chat sessions (``chat/``) and front doors are
not here.

Only this package imports the LLM SDK (``anthropic``); everything else sees the SDK-independent
:class:`~browserops.agent.model_api.ModelTurn` and the :class:`~browserops.agent.model_api.Model` protocol.
"""
