// The space's build ledger: per builder, what its builds have cost so far (see
// core.record_build_cost).
// params: $space
// returns: builder, builds, sessions, turns, seconds, backends, llm_calls, llm_cache_hits, llm_prompt_tokens, llm_completion_tokens, llm_seconds, llm_errors, llm_retries, llm_repairs, llm_fallbacks, updated_at
MATCH (c:BuildCost {space: $space})
RETURN c.id AS builder, c.builds AS builds, c.sessions AS sessions, c.turns AS turns,
       c.seconds AS seconds, c.backends AS backends, c.llm_calls AS llm_calls,
       c.llm_cache_hits AS llm_cache_hits, c.llm_prompt_tokens AS llm_prompt_tokens,
       c.llm_completion_tokens AS llm_completion_tokens, c.llm_seconds AS llm_seconds,
       c.llm_errors AS llm_errors, c.llm_retries AS llm_retries, c.llm_repairs AS llm_repairs,
       c.llm_fallbacks AS llm_fallbacks, c.updated_at AS updated_at
ORDER BY builder
