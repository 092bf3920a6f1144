// Add one completed build to the space's ledger for its builder (one BuildCost node per
// space and builder, id = the builder's name): builds, sessions, turns, seconds, the backends
// used and the LLM usage (calls, cache hits, tokens, seconds in the LLM, errors, retries,
// repairs, fallbacks), summed over every build of the space in every process. History, not
// memory: the digest leaves BuildCost out, and `graphmem forget` deletes it with the space.
// No `builder` property: queries over derived nodes (builder set, FROM expected) never see it.
// params: $space, $builder, $backend, $sessions, $turns, $seconds, $llm
// returns: builds
MERGE (c:BuildCost {space: $space, id: $builder})
  ON CREATE SET c.created_at = datetime(), c.builds = 0,
                c.sessions = 0, c.turns = 0, c.seconds = 0.0, c.backends = [],
                c.llm_calls = 0, c.llm_cache_hits = 0, c.llm_prompt_tokens = 0,
                c.llm_completion_tokens = 0, c.llm_seconds = 0.0, c.llm_errors = 0,
                c.llm_retries = 0, c.llm_repairs = 0, c.llm_fallbacks = 0
SET c.builds = c.builds + 1, c.sessions = c.sessions + $sessions, c.turns = c.turns + $turns,
    c.seconds = c.seconds + $seconds,
    c.backends = CASE WHEN $backend IN c.backends THEN c.backends ELSE c.backends + $backend END,
    c.llm_calls = c.llm_calls + $llm.calls,
    c.llm_cache_hits = c.llm_cache_hits + $llm.cache_hits,
    c.llm_prompt_tokens = c.llm_prompt_tokens + $llm.prompt_tokens,
    c.llm_completion_tokens = c.llm_completion_tokens + $llm.completion_tokens,
    c.llm_seconds = c.llm_seconds + $llm.seconds,
    c.llm_errors = c.llm_errors + $llm.errors,
    c.llm_retries = c.llm_retries + $llm.retries,
    c.llm_repairs = c.llm_repairs + $llm.repairs,
    c.llm_fallbacks = c.llm_fallbacks + $llm.fallbacks,
    c.updated_at = datetime()
RETURN c.builds AS builds
