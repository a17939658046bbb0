"""The agent: LLM client, loop, prompt, call parsing, context, and the chat session engine."""
